package dev.argus.ingest;

import dev.argus.agent.SseClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Small helpers for the end-to-end ingestion tests (run on the JUnit thread, never on an event loop). */
final class IngestTestSupport {

  private IngestTestSupport() {
  }

  static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("future failed: " + e.getMessage(), e);
    }
  }

  /** Asserts a JSON error response: status, {@code code}, and a message containing {@code fragment}. */
  static JsonObject assertError(HttpResponse<Buffer> response, int status, String code, String fragment) {
    assertEquals(status, response.statusCode(), response.bodyAsString());
    JsonObject body = response.bodyAsJsonObject();
    assertEquals(code, body.getString("code"), body.encode());
    if (fragment != null && !body.getString("error").contains(fragment)) {
      throw new AssertionError("error '" + body.getString("error") + "' does not contain '" + fragment + "'");
    }
    return body;
  }

  /** One SSE event as read by a client: its id (null when it has none), type and JSON data. */
  record SseEvent(String id, String event, String data) {
    static SseEvent of(SseClient.Event e) {
      return new SseEvent(e.id() < 0 ? null : String.valueOf(e.id()), e.type(), e.data().encode());
    }

    JsonObject json() {
      return new JsonObject(data);
    }
  }

  /**
   * Reads an SSE stream with a real HTTP client ({@link SseClient}) until the server ends it or an event matches
   * {@code until}; fails on a status other than 200.
   */
  static Future<List<SseEvent>> readSse(Vertx vertx, int port, String path, Predicate<SseEvent> until) {
    SseClient client = new SseClient(vertx, port);
    return client.get(path, null, e -> until.test(SseEvent.of(e)))
        .compose(r -> r.status() == 200
            ? Future.succeededFuture(r.events().stream().map(SseEvent::of).toList())
            : Future.<List<SseEvent>>failedFuture("SSE status " + r.status() + ": " + r.body()))
        .eventually(client::close);
  }
}
