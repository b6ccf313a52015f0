package dev.argus.http;

import dev.argus.config.ArgusConfig;
import dev.argus.testing.RawHttp;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Multipart uploads spooled under {@code <data>/uploads} never outlive their request: an unterminated body is
 * answered 408 after {@code http.bodyTimeoutMs} and its file deleted, a client that goes away mid-upload leaves
 * nothing, and files left by an earlier process are swept at start.
 */
class UploadCleanupTest {

  private static final String PART = "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n"
      + "Content-Type: text/plain\r\n\r\n" + "hello ".repeat(5_000);

  private static List<Path> files(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.toList();
    }
  }

  private static void awaitEmpty(Path dir) throws Exception {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!files(dir).isEmpty()) {
      assertTrue(System.nanoTime() < deadline, "upload files left behind: " + files(dir));
      Thread.sleep(100);
    }
  }

  @Test
  void uploadFilesAreDeletedOnEveryPathAndSweptAtStart() throws Exception {
    Path data = TestApp.tempDataDir();
    Path uploads = data.resolve("uploads");
    Files.createDirectories(uploads);
    Files.writeString(uploads.resolve("left-by-a-crash"), "stale");
    Vertx vertx = Vertx.vertx();
    try {
      ArgusConfig conf = TestApp.config(data).with("http", "bodyTimeoutMs", 1500);
      TestApp app = await(TestApp.start(vertx, conf));
      assertEquals(List.of(), files(uploads), "stale upload files are swept at start");

      // announced length never reached: the body never ends
      byte[] part = PART.getBytes(StandardCharsets.ISO_8859_1);
      RawHttp.Response timedOut = RawHttp.exchange(app.port(), concat(("POST /api/documents HTTP/1.1\r\n"
          + "Host: localhost\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: "
          + (part.length + 100_000) + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1), part));
      assertEquals(408, timedOut.status(), timedOut.body());
      assertEquals("request_timeout", timedOut.json().getString("code"));
      assertTrue(timedOut.closed(), "the connection is closed");
      awaitEmpty(uploads);

      // chunked and never terminated
      RawHttp.Response chunked = RawHttp.exchange(app.port(), concat(("POST /api/documents HTTP/1.1\r\n"
          + "Host: localhost\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nTransfer-Encoding: chunked\r\n\r\n"
          + Integer.toHexString(part.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1), part));
      assertEquals(408, chunked.status(), chunked.body());
      awaitEmpty(uploads);

      // the HTTP body is complete, but the multipart content never closes its last part
      RawHttp.Response open = RawHttp.exchange(app.port(), concat(("POST /api/documents HTTP/1.1\r\n"
          + "Host: localhost\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: " + part.length
          + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1), part));
      assertEquals(408, open.status(), open.body());
      assertTrue(open.closed(), "the connection is closed");
      awaitEmpty(uploads);

      // the client goes away in the middle of the upload
      try (Socket socket = new Socket("127.0.0.1", app.port())) {
        OutputStream out = socket.getOutputStream();
        out.write(("POST /api/documents HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; "
            + "boundary=XyZ\r\nContent-Length: " + (part.length + 100_000) + "\r\n\r\n")
            .getBytes(StandardCharsets.ISO_8859_1));
        out.write(part);
        out.flush();
        Thread.sleep(300);
      }
      awaitEmpty(uploads);
      await(app.stop());
    } finally {
      await(vertx.close());
    }
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
