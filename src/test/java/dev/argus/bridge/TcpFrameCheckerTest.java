package dev.argus.bridge;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link TcpFrameChecker} on its own: the frames of one read reach the library one by one, also when the library
 * throws on one of them (the client gets {@code err invalid_frame} for that one; the ones behind it are not held
 * back until the client writes again).
 */
class TcpFrameCheckerTest {

  @Test
  void aFrameTheLibraryThrowsOnDoesNotHoldBackTheFramesBehindIt() {
    List<String> handled = new ArrayList<>();
    List<JsonObject> written = new ArrayList<>();
    TcpFrameChecker checker = new TcpFrameChecker(1024, frame -> {
      String address = new JsonObject(frame.getBuffer(4, frame.length())).getString("address");
      handled.add(address);
      if (address.equals("boom")) {
        throw new IllegalStateException("the library failed on this frame");
      }
    }, written::add, () -> { });

    checker.handle(Buffer.buffer().appendBuffer(frame("first")).appendBuffer(frame("boom"))
        .appendBuffer(frame("behind")));

    assertEquals(List.of("first", "boom", "behind"), handled);
    assertEquals(List.of(new JsonObject().put("type", "err").put("message", "invalid_frame")), written);
    checker.handle(frame("next")); // the framing is still in step
    assertEquals(List.of("first", "boom", "behind", "next"), handled);
  }

  @Test
  void headersMustBeTokensNamingPrintableStringsWhateverTheType() {
    List<String> handled = new ArrayList<>();
    List<JsonObject> written = new ArrayList<>();
    TcpFrameChecker checker = new TcpFrameChecker(1024, frame -> handled.add("passed"), written::add, () -> { });
    for (String type : List.of("send", "publish", "register", "unregister")) {
      checker.handle(encoded(new JsonObject().put("type", type).put("address", "a")
          .put("headers", new JsonObject().put("ok", "x").putNull("bad"))));
      checker.handle(encoded(new JsonObject().put("type", type).put("address", "a")
          .put("headers", new JsonObject().put("ok", "x").put("n", 1))));
    }
    for (JsonObject headers : List.of(new JsonObject().put("k", "x\u0000y"), new JsonObject().put("k", "a\r\nb"),
        new JsonObject().put("a b", "v"), new JsonObject().put("\u00e9", "v"), new JsonObject().put("", "v"))) {
      checker.handle(encoded(new JsonObject().put("type", "unregister").put("address", "a").put("headers", headers)));
    }
    assertEquals(List.of(), handled);
    assertEquals(13, written.size());
    written.forEach(w -> assertEquals("invalid_frame", w.getString("message"), w.encode()));
    checker.handle(encoded(new JsonObject().put("type", "unregister").put("address", "a")
        .put("headers", new JsonObject().put("ok", "x").put("x-trace_id.1!#$%&'*+^`|~", "a\tb \u00e9"))));
    assertEquals(List.of("passed"), handled);
  }

  private static Buffer frame(String address) {
    return encoded(new JsonObject().put("type", "send").put("address", address).put("body", new JsonObject()));
  }

  private static Buffer encoded(JsonObject envelope) {
    Buffer json = envelope.toBuffer();
    return Buffer.buffer().appendInt(json.length()).appendBuffer(json);
  }
}
