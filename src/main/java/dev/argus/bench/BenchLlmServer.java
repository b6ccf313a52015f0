package dev.argus.bench;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A minimal OpenAI-compatible chat-completions server for the benchmark: it answers every request after a fixed
 * delay, with what each phase expects (recognised by its system prompt), so Argus's own latency on top of the
 * model's can be measured.
 */
public final class BenchLlmServer {

  private final Vertx vertx;
  private final long delayMs;
  private final AtomicInteger requests = new AtomicInteger();
  private HttpServer server;

  public BenchLlmServer(Vertx vertx, long delayMs) {
    this.vertx = vertx;
    this.delayMs = delayMs;
  }

  public Future<BenchLlmServer> start() {
    return vertx.createHttpServer().requestHandler(this::handle).listen(0, "127.0.0.1").map(s -> {
      server = s;
      return this;
    });
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  public int requests() {
    return requests.get();
  }

  public Future<Void> close() {
    return server.close();
  }

  private void handle(HttpServerRequest req) {
    req.body().onSuccess(buf -> {
      requests.incrementAndGet();
      JsonObject body = buf.toJsonObject();
      JsonArray messages = body.getJsonArray("messages", new JsonArray());
      String system = messages.isEmpty() ? "" : String.valueOf(messages.getJsonObject(0).getValue("content"));
      String user = messages.size() < 2 ? "" : String.valueOf(messages.getJsonObject(messages.size() - 1).getValue("content"));
      String content = answer(system, user);
      boolean stream = body.getBoolean("stream", false);
      vertx.setTimer(delayMs, id -> {
        if (stream) {
          req.response().putHeader("Content-Type", "text/event-stream").setChunked(true);
          for (String word : content.split("(?<= )")) {
            req.response().write("data: " + chunk(new JsonObject().put("content", word), null).encode() + "\n\n");
          }
          req.response().write("data: " + chunk(new JsonObject(), "stop").encode() + "\n\n");
          req.response().end("data: [DONE]\n\n");
        } else {
          req.response().putHeader("Content-Type", "application/json").end(new JsonObject()
              .put("id", "bench").put("object", "chat.completion").put("model", "bench")
              .put("choices", new JsonArray().add(new JsonObject().put("index", 0).put("finish_reason", "stop")
                  .put("message", new JsonObject().put("role", "assistant").put("content", content))))
              .put("usage", new JsonObject().put("prompt_tokens", 100).put("completion_tokens", 20)).encode());
        }
      });
    });
  }

  private static JsonObject chunk(JsonObject delta, String finish) {
    return new JsonObject().put("id", "bench").put("object", "chat.completion.chunk").put("choices",
        new JsonArray().add(new JsonObject().put("index", 0).put("delta", delta).put("finish_reason", finish)));
  }

  /** Phase-appropriate content; the answer cites the first evidence marker of the prompt. */
  static String answer(String system, String user) {
    if (system.startsWith("You analyse")) {
      return "{\"intent\": \"question\", \"needsRetrieval\": true, \"query\": \"\", \"entities\": [], \"filters\": {}}";
    }
    if (system.startsWith("You plan")) {
      String q = user.contains("\"question\"") ? new JsonObject(user).getString("question", "policy") : "policy";
      return new JsonObject().put("rationale", "search").put("calls", new JsonArray().add(new JsonObject()
          .put("tool", "knowledge_search").put("params", new JsonObject().put("query", q)))).encode();
    }
    if (system.startsWith("You answer")) {
      int at = user.indexOf("[cite:");
      String marker = at < 0 ? "" : user.substring(at, user.indexOf(']', at) + 1);
      int data = user.indexOf("<data>\n");
      String first = data < 0 ? "No evidence." : user.substring(data + 7, Math.min(user.indexOf("\n</data>", data),
          data + 7 + 200));
      int dot = first.indexOf(". ");
      return (dot > 0 ? first.substring(0, dot + 1) : first) + " " + marker;
    }
    if (system.startsWith("You check")) {
      return "{\"sentences\": [{\"index\": 0, \"supported\": true}], \"contradictions\": [], \"overconfident\": []}";
    }
    return "{}";
  }
}
