package dev.argus.testing;

import io.vertx.core.json.JsonObject;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A raw HTTP/1.1 client over a plain socket, for requests no well-behaved client sends (unknown methods, both
 * framings, no {@code Host}, bad escapes, unterminated bodies) and for watching what the server does with the
 * connection afterwards. Blocking: use it on the test thread, never on an event loop.
 */
public final class RawHttp implements AutoCloseable {

  /** One response: status, headers (lower-case names), body, and whether the server then closed the connection. */
  public record Response(int status, Map<String, String> headers, String body, boolean closed, long millis) {
    public JsonObject json() {
      return new JsonObject(body);
    }

    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  public RawHttp(int port) throws IOException {
    socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(30_000);
    in = socket.getInputStream();
    out = socket.getOutputStream();
  }

  /** One request on a new connection; waits up to 1.5 s after the response to see whether the server closes. */
  public static Response exchange(int port, String request) throws IOException {
    return exchange(port, request.getBytes(StandardCharsets.ISO_8859_1));
  }

  public static Response exchange(int port, byte[] request) throws IOException {
    return exchange(port, request, 1_500);
  }

  /** One request on a new connection; {@code closeWaitMs} 0 does not wait to see whether the server closes. */
  public static Response exchange(int port, byte[] request, long closeWaitMs) throws IOException {
    try (RawHttp http = new RawHttp(port)) {
      http.send(request);
      Response r = http.read(request.length > 5 && new String(request, 0, 5, StandardCharsets.ISO_8859_1)
          .equals("HEAD "));
      boolean closed = closeWaitMs > 0 && http.closedWithin(closeWaitMs);
      return new Response(r.status(), r.headers(), r.body(), closed, r.millis());
    }
  }

  public RawHttp send(String text) throws IOException {
    return send(text.getBytes(StandardCharsets.ISO_8859_1));
  }

  public RawHttp send(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
    return this;
  }

  /** Reads one response (body by Content-Length, chunked, or to the end of the connection; none for HEAD). */
  public Response read() throws IOException {
    return read(false);
  }

  public Response read(boolean head) throws IOException {
    long start = System.nanoTime();
    String statusLine = line();
    if (statusLine == null) {
      throw new IOException("the server closed the connection without a response");
    }
    int status = Integer.parseInt(statusLine.split(" ")[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (String l = line(); l != null && !l.isEmpty(); l = line()) {
      int colon = l.indexOf(':');
      headers.putIfAbsent(l.substring(0, colon).strip().toLowerCase(Locale.ROOT), l.substring(colon + 1).strip());
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    if (!head && status != 204 && status != 304) {
      if (headers.containsKey("content-length")) {
        body.write(in.readNBytes(Integer.parseInt(headers.get("content-length"))));
      } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
        for (int size = Integer.parseInt(line().split(";")[0].strip(), 16); size > 0;
             size = Integer.parseInt(line().split(";")[0].strip(), 16)) {
          body.write(in.readNBytes(size));
          line();
        }
        line();
      } else {
        body.write(in.readAllBytes());
      }
    }
    return new Response(status, headers, body.toString(StandardCharsets.UTF_8), false,
        (System.nanoTime() - start) / 1_000_000);
  }

  /** True when the server closes the connection within {@code millis} (reads nothing more from it). */
  public boolean closedWithin(long millis) throws IOException {
    socket.setSoTimeout((int) millis);
    try {
      return in.read() < 0;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true; // reset by the server
    } finally {
      socket.setSoTimeout(30_000);
    }
  }

  private String line() throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) >= 0) {
      if (c == '\n') {
        String s = buf.toString(StandardCharsets.ISO_8859_1);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
      }
      buf.write(c);
    }
    return buf.size() == 0 ? null : buf.toString(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
