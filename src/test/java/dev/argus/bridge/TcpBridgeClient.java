package dev.argus.bridge;

import io.vertx.core.json.JsonObject;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * A minimal client of the TCP event-bus bridge, written from its framing (a 4-byte big-endian length, then that many
 * bytes of a UTF-8 JSON envelope {@code {type, address, replyAddress?, headers?, body}}), as an upstream system in
 * any language would write it.
 */
final class TcpBridgeClient implements AutoCloseable {

  private final Socket socket;
  private final DataInputStream in;
  private final DataOutputStream out;

  TcpBridgeClient(int port) throws IOException {
    socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(30_000);
    in = new DataInputStream(socket.getInputStream());
    out = new DataOutputStream(socket.getOutputStream());
  }

  void write(JsonObject frame) throws IOException {
    byte[] bytes = frame.encode().getBytes(StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
    out.flush();
  }

  /** Bytes as they are: bad framing. */
  void writeRaw(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** A request: {@code send} with a reply address and the key in the {@code authorization} header. */
  void send(String address, String replyAddress, String key, JsonObject body) throws IOException {
    JsonObject frame = new JsonObject().put("type", "send").put("address", address).put("replyAddress", replyAddress)
        .put("body", body);
    if (key != null) {
      frame.put("headers", new JsonObject().put("authorization", "Bearer " + key));
    }
    write(frame);
  }

  void register(String address, String key) throws IOException {
    JsonObject frame = new JsonObject().put("type", "register").put("address", address);
    if (key != null) {
      frame.put("headers", new JsonObject().put("authorization", "Bearer " + key));
    }
    write(frame);
  }

  JsonObject read() throws IOException {
    int length = in.readInt();
    byte[] bytes = new byte[length];
    in.readFully(bytes);
    return new JsonObject(new String(bytes, StandardCharsets.UTF_8));
  }

  /** The next frame addressed to {@code address} (others are skipped), or null when none comes in time. */
  JsonObject readFor(String address, int timeoutMs) throws IOException {
    socket.setSoTimeout(timeoutMs);
    try {
      while (true) {
        JsonObject f = read();
        if (address.equals(f.getString("address"))) {
          return f;
        }
      }
    } catch (SocketTimeoutException e) {
      return null;
    } finally {
      socket.setSoTimeout(30_000);
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
