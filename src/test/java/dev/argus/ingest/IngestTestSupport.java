package dev.argus.ingest;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;

import java.util.ArrayList;
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

  /** One SSE event as read by a client. */
  record SseEvent(String id, String event, String data) {
    JsonObject json() {
      return new JsonObject(data);
    }
  }

  /** Reads an SSE stream with a real HTTP client until the server ends it or an event matches {@code until}. */
  static Future<List<SseEvent>> readSse(Vertx vertx, int port, String path, Predicate<SseEvent> until) {
    HttpClient client = vertx.createHttpClient();
    List<SseEvent> events = new ArrayList<>();
    StringBuilder pending = new StringBuilder();
    // The response's handlers are set in a callback on the send future itself, which runs on the connection's event
    // loop before it reads on; chained one level further out, the callback could be dispatched later, after a short
    // stream had already ended (setting a handler then throws IllegalStateException).
    return client.request(new RequestOptions().setMethod(HttpMethod.GET).setHost("127.0.0.1").setPort(port)
            .setURI(path).putHeader("Accept", "text/event-stream"))
        .compose(req -> req.send().compose(resp -> {
          if (resp.statusCode() != 200) {
            return resp.body().compose(b -> Future.failedFuture("SSE status " + resp.statusCode() + ": " + b));
          }
          io.vertx.core.Promise<List<SseEvent>> done = io.vertx.core.Promise.promise();
          resp.handler(buf -> {
            pending.append(buf.toString());
            int end;
            while ((end = pending.indexOf("\n\n")) >= 0) {
              String frame = pending.substring(0, end);
              pending.delete(0, end + 2);
              SseEvent e = parse(frame);
              if (e != null) {
                events.add(e);
                if (until.test(e)) {
                  done.tryComplete(events);
                }
              }
            }
          });
          resp.endHandler(v -> done.tryComplete(events));
          resp.exceptionHandler(done::tryFail);
          return done.future();
        }))
        .eventually(() -> client.close());
  }

  private static SseEvent parse(String frame) {
    String id = null;
    String event = null;
    StringBuilder data = null;
    for (String line : frame.split("\n")) {
      if (line.startsWith(":")) {
        continue;
      }
      if (line.startsWith("id: ")) {
        id = line.substring(4);
      } else if (line.startsWith("event: ")) {
        event = line.substring(7);
      } else if (line.startsWith("data: ")) {
        data = data == null ? new StringBuilder(line.substring(6)) : data.append('\n').append(line.substring(6));
      }
    }
    return data == null ? null : new SseEvent(id, event, data.toString());
  }
}
