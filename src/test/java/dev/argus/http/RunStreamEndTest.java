package dev.argus.http;

import dev.argus.testing.RawHttp;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A finished run's event stream ends for good: streams announce a reconnection delay, and a browser that reconnects
 * (with {@code Last-Event-ID}) after reading {@code final} gets 204, which makes EventSource stop instead of
 * reconnecting every 3 s forever; a client that missed events still gets them.
 */
class RunStreamEndTest {

  private static final Pattern FINAL = Pattern.compile("id: (\\d+)\\nevent: final\\n");

  @Test
  void reconnectingAfterTheFinalEventGets204() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      TestApp app = await(TestApp.start(vertx, TestApp.config(TestApp.tempDataDir())));
      String body = new JsonObject().put("question", "How long do refunds take?").encode();
      RawHttp.Response chat = RawHttp.exchange(app.port(), ("POST /api/chat HTTP/1.1\r\nHost: localhost\r\n"
          + "Content-Type: application/json\r\nContent-Length: " + body.getBytes(StandardCharsets.UTF_8).length
          + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8), 0);
      assertEquals(200, chat.status(), chat.body());
      assertTrue(chat.body().startsWith(": connected\nretry: 5000\n\n"), chat.body());
      Matcher m = FINAL.matcher(chat.body());
      assertTrue(m.find(), chat.body());
      String finalId = m.group(1);
      String events = "GET /api/runs/" + chat.header("x-run-id") + "/events HTTP/1.1\r\nHost: localhost\r\n";

      RawHttp.Response reconnect = RawHttp.exchange(app.port(), events + "Last-Event-ID: " + finalId + "\r\n\r\n");
      assertEquals(204, reconnect.status(), reconnect.body());
      RawHttp.Response missed = RawHttp.exchange(app.port(), events + "Last-Event-ID: " + (Long.parseLong(finalId) - 1)
          + "\r\n\r\n");
      assertEquals(200, missed.status());
      assertTrue(missed.body().contains("event: final"), missed.body());
      RawHttp.Response fresh = RawHttp.exchange(app.port(), events + "\r\n");
      assertEquals(200, fresh.status(), "a first connection replays the finished run");
      assertTrue(FINAL.matcher(fresh.body()).find(), fresh.body());
      await(app.stop());
    } finally {
      await(vertx.close());
    }
  }
}
