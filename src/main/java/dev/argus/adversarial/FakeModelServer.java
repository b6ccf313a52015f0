package dev.argus.adversarial;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The model of the fabricated-citation scenarios: a real HTTP server on the loopback interface, on a free port,
 * speaking the OpenAI chat-completions wire protocol ({@code POST /v1/chat/completions}), whose every answer is the
 * given text — an answer that cites things that do not exist. It lives only for one adversarial run, so the run needs
 * no model of its own and spends no tokens; the product's citation validation is what is probed.
 */
final class FakeModelServer {

  private final Vertx vertx;
  private final String answer;
  private HttpServer server;

  FakeModelServer(Vertx vertx, String answer) {
    this.vertx = vertx;
    this.answer = answer;
  }

  /** Starts listening on 127.0.0.1; completes with the base URL ({@code http://127.0.0.1:PORT/v1}). */
  Future<String> start() {
    return vertx.createHttpServer().requestHandler(req -> {
      if (!"/v1/chat/completions".equals(req.path())) {
        req.response().setStatusCode(404).putHeader("Content-Type", "application/json")
            .end(new JsonObject().put("error", new JsonObject().put("message", "not found")).encode());
        return;
      }
      req.body().onComplete(b -> req.response().putHeader("Content-Type", "application/json").end(new JsonObject()
          .put("id", "chatcmpl-adversarial").put("object", "chat.completion").put("model", "adversarial-fabricator")
          .put("choices", new JsonArray().add(new JsonObject().put("index", 0).put("finish_reason", "stop")
              .put("message", new JsonObject().put("role", "assistant").put("content", answer))))
          .put("usage", new JsonObject().put("prompt_tokens", 1).put("completion_tokens", 1).put("total_tokens", 2))
          .encode()));
    }).listen(0, "127.0.0.1").map(s -> {
      server = s;
      return "http://127.0.0.1:" + s.actualPort() + "/v1";
    });
  }

  Future<Void> stop() {
    return server == null ? Future.succeededFuture() : server.close();
  }
}
