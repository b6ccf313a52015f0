package dev.argus.bridge;

import dev.argus.config.ArgusConfig;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.EOFException;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Regressions for what scripts/fuzz-bridge.py found, each on a real Argus over real sockets (loopback, no keys
 * required): envelopes with fields of the wrong type, bad TCP framing, and bad requests to the SockJS HTTP
 * transports are refused with 4xx in the {@code {"error", "code"}} shape, and the connection keeps working.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BridgeHostileFramesTest {

  private static final int MAX_MESSAGE_BYTES = 1024;

  private Vertx vertx;
  private TestApp app;
  private int tcpPort;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  void start() throws Exception {
    try (ServerSocket free = new ServerSocket(0)) {
      tcpPort = free.getLocalPort();
    }
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir()).with("bridge", "tcpEnabled", true)
        .with("bridge", "tcpPort", tcpPort).with("bridge", "maxMessageBytes", MAX_MESSAGE_BYTES);
    vertx = Vertx.vertx();
    app = await(TestApp.start(vertx, conf));
  }

  @AfterAll
  void stop() throws Exception {
    await(vertx.close());
  }

  private static JsonObject search(String reply) {
    return new JsonObject().put("type", "send").put("address", "argus.retrieve.search").put("replyAddress", reply)
        .put("body", new JsonObject().put("query", "refund").put("topK", 2));
  }

  /** The connection still serves: a search on it gets its (successful) reply. */
  private static void stillServes(TcpBridgeClient client) throws IOException {
    client.write(search("alive"));
    JsonObject reply = client.readFor("alive", 20_000);
    assertNotNull(reply, "no reply on the same connection");
    assertEquals("message", reply.getString("type"), reply.encode());
  }

  private static void assertRefused(JsonObject reply, int status, String code) {
    assertNotNull(reply, "no reply");
    assertEquals("err", reply.getString("type"), reply.encode());
    assertEquals(status, reply.getInteger("failureCode"), reply.encode());
    JsonObject body = new JsonObject(reply.getString("message"));
    assertEquals(code, body.getString("code"), body.encode());
    assertNotNull(body.getString("error"));
  }

  @Test
  void envelopeFieldsOfTheWrongTypeAreRefused400() throws Exception {
    try (TcpBridgeClient client = new TcpBridgeClient(tcpPort)) {
      client.write(search("h").put("headers", false)); // was: ClassCastException in the hook, no answer at all
      assertRefused(client.readFor("h", 10_000), 400, "invalid_frame");
      client.write(search("b").put("body", "a string")); // was: 500 (the consumer cast the body)
      assertRefused(client.readFor("b", 10_000), 400, "invalid_frame");
      client.write(new JsonObject().put("type", "send").put("address", "argus.decide.onboarding").put("replyAddress",
          "n").put("body", new JsonObject().put("seller", "not an object"))); // was: 500 internal_error
      assertRefused(client.readFor("n", 10_000), 400, "invalid_field");
      stillServes(client);
    }
  }

  @Test
  void anUnknownFrameTypeIsRefusedAndTheConnectionKeepsItsFraming() throws Exception {
    try (TcpBridgeClient client = new TcpBridgeClient(tcpPort)) {
      client.write(search("t").put("type", "SEND")); // was: the library threw, every later frame was lost
      assertRefused(client.readFor("t", 10_000), 400, "invalid_type");
      client.write(search("t2").put("type", 7));
      assertRefused(client.readFor("t2", 10_000), 400, "invalid_type");
      // was: the library cast an unregister's headers (no hook before it) and lost the framing (scripts/fuzz)
      client.write(new JsonObject().put("type", "unregister").put("address", "argus.decisions.created")
          .put("headers", "not an object"));
      assertEquals("invalid_type", client.read().getString("message")); // the err frame after t2's reply
      assertEquals("invalid_frame", client.read().getString("message"));
      stillServes(client);
    }
  }

  @Test
  void aHeaderValueThatIsNotAStringIsRefusedForEveryTypeAndTheNextFrameInTheSameWriteIsAnswered() throws Exception {
    try (TcpBridgeClient client = new TcpBridgeClient(tcpPort)) {
      // was (scripts/fuzz-bridge.py, a CI flake): the library copies every let-through frame's headers, an
      // unregister's too, and threw on a null value; the search written behind it in the same write then waited for
      // the client's next write
      JsonObject unregister = new JsonObject().put("type", "unregister").put("address", "argus.decisions.created")
          .put("headers", new JsonObject().put("k", "x").putNull("94"));
      client.writeRaw(frames(unregister, search("after-null")));
      assertEquals("invalid_frame", client.read().getString("message"));
      JsonObject reply = client.readFor("after-null", 20_000);
      assertNotNull(reply, "the search behind the refused frame was not answered");
      assertEquals("message", reply.getString("type"), reply.encode());
      JsonObject register = new JsonObject().put("type", "register").put("address", "argus.decisions.created")
          .put("headers", new JsonObject().put("n", 7));
      client.writeRaw(frames(register, search("after-number")));
      assertEquals("invalid_frame", client.read().getString("message"));
      assertEquals("message", client.readFor("after-number", 20_000).getString("type"));
      client.write(search("s").put("headers", new JsonObject().putNull("x"))); // a send: a failure reply first
      assertRefused(client.readFor("s", 10_000), 400, "invalid_frame");
      stillServes(client);
    }
  }

  @Test
  void aHeaderTheSockJsBridgeCannotCarryIsRefused400OnBothTransports() throws Exception {
    // was (scripts/fuzz-bridge.py): the SockJS bridge copies the headers into an HTTP header map after the hook, which
    // threw on a control character or a name that is not a token: the request was neither refused nor delivered
    String session = "/eventbus/1/s-headers";
    assertEquals("o", send("POST", session + "/xhr", null).body().trim());
    JsonObject nul = search("hv").put("headers", new JsonObject().put("k", "x\u0000y"));
    JsonObject spaced = search("hn").put("headers", new JsonObject().put("a b", "v"));
    assertEquals(204, send("POST", session + "/xhr_send",
        new io.vertx.core.json.JsonArray().add(nul.encode()).add(spaced.encode()).encode()).statusCode());
    java.util.Map<String, JsonObject> replies = new java.util.HashMap<>();
    for (int poll = 0; poll < 3 && replies.size() < 2; poll++) {
      String body = send("POST", session + "/xhr", null).body().trim(); // "a[...]" frames, or "h" after 25 s
      if (body.startsWith("a")) {
        for (Object frame : new io.vertx.core.json.JsonArray(body.substring(1))) {
          JsonObject f = new JsonObject((String) frame);
          if (f.getString("address") != null) {
            replies.put(f.getString("address"), f);
          }
        }
      }
    }
    assertRefused(replies.get("hv"), 400, "invalid_frame");
    assertRefused(replies.get("hn"), 400, "invalid_frame");
    try (TcpBridgeClient client = new TcpBridgeClient(tcpPort)) {
      client.write(search("tv").put("headers", new JsonObject().put("k", "x\u0000y")));
      assertRefused(client.readFor("tv", 10_000), 400, "invalid_frame");
      client.write(search("ok").put("headers", new JsonObject().put("x-trace_id.1", "a\tb c")));
      assertEquals("message", client.readFor("ok", 20_000).getString("type")); // tokens and a tab pass
    }
  }

  /** Length-prefixed frames back to back, for one write. */
  private static byte[] frames(JsonObject... envelopes) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (JsonObject envelope : envelopes) {
      byte[] bytes = envelope.encode().getBytes(StandardCharsets.UTF_8);
      out.writeBytes(ByteBuffer.allocate(4).putInt(bytes.length).array());
      out.writeBytes(bytes);
    }
    return out.toByteArray();
  }

  @Test
  void aFrameLongerThanTheLimitIsSkippedNotBuffered() throws Exception {
    try (TcpBridgeClient client = new TcpBridgeClient(tcpPort)) {
      // announces 1,000,000 bytes (limit 1024), sends 3000 of them, then the rest: all skipped, then a good frame
      ByteBuffer head = ByteBuffer.allocate(4).putInt(1_000_000);
      client.writeRaw(head.array());
      client.writeRaw(new byte[3000]);
      JsonObject err = client.read();
      assertEquals("frame_too_large", err.getString("message"), err.encode());
      client.writeRaw(new byte[1_000_000 - 3000]);
      stillServes(client);
    }
  }

  @Test
  void aNegativeLengthClosesTheConnection() throws Exception {
    try (TcpBridgeClient client = new TcpBridgeClient(tcpPort)) {
      client.writeRaw(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xF0});
      assertEquals("invalid_frame", client.read().getString("message"));
      assertThrows(EOFException.class, client::read);
    }
    try (TcpBridgeClient client = new TcpBridgeClient(tcpPort)) { // the bridge itself is unharmed
      stillServes(client);
    }
  }

  private HttpResponse<String> send(String method, String path, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path));
    b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
        : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static void assertError(HttpResponse<String> r, int status, String code) {
    assertEquals(status, r.statusCode(), r.body());
    JsonObject body = new JsonObject(r.body());
    assertEquals(code, body.getString("code"), r.body());
    assertNotNull(body.getString("error"));
  }

  @Test
  void badSockJsTransportRequestsAre4xxInTheErrorShape() throws Exception {
    // an open XHR session (its first poll answers "o", the open frame)
    HttpResponse<String> open = send("POST", "/eventbus/1/s-hostile/xhr", null);
    assertEquals(200, open.statusCode(), open.body());
    assertEquals("o", open.body().trim());
    // was 500 "BodyHandler is required" for each of these
    assertError(send("POST", "/eventbus/1/s-hostile/xhr_send", ""), 400, "payload_expected");
    assertError(send("POST", "/eventbus/1/s-hostile/xhr_send", "not json"), 400, "invalid_payload");
    assertError(send("POST", "/eventbus/1/s-hostile/xhr_send", "[1, 2]"), 400, "invalid_payload");
    HttpResponse<String> good = send("POST", "/eventbus/1/s-hostile/xhr_send",
        new io.vertx.core.json.JsonArray().add(search("x").encode()).encode());
    assertEquals(204, good.statusCode(), good.body());
    // empty 404/405 bodies and the JSONP transport's 500s before
    assertError(send("POST", "/eventbus/1/no-such-session/xhr_send", "[\"{}\"]"), 404, "unknown_session");
    assertError(send("PUT", "/eventbus/info", null), 405, "method_not_allowed");
    assertError(send("POST", "/eventbus/websocket", "x"), 405, "method_not_allowed");
    assertError(send("GET", "/eventbus/websocket", null), 400, "websocket_expected");
    assertError(send("GET", "/eventbus/1/s2/jsonp", null), 404, "not_found");
    assertError(send("GET", "/eventbus/nope", null), 404, "not_found");
    assertEquals(200, send("GET", "/eventbus/info", null).statusCode());
  }
}
