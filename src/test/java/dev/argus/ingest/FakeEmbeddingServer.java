package dev.argus.ingest;

import dev.argus.config.ArgusConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server speaking the OpenAI {@code POST /v1/embeddings} wire protocol, for tests: deterministic
 * bag-of-words vectors, request counting, an optional delay per request, and a 400 for any request whose inputs
 * contain {@link #POISON} (the way to inject an embedding failure in the middle of a document).
 */
final class FakeEmbeddingServer {

  static final String POISON = "POISON-PILL";
  static final int DIMENSION = 16;
  static final String MODEL = "fake-embed-16";

  private final HttpServer server;
  final AtomicInteger requests = new AtomicInteger();
  final AtomicInteger inputs = new AtomicInteger();
  final List<String> texts = new CopyOnWriteArrayList<>();
  volatile long delayMs;

  private FakeEmbeddingServer(HttpServer server) {
    this.server = server;
  }

  static Future<FakeEmbeddingServer> start(Vertx vertx) {
    FakeEmbeddingServer[] holder = new FakeEmbeddingServer[1];
    HttpServer server = vertx.createHttpServer().requestHandler(req -> holder[0].handle(vertx, req));
    holder[0] = new FakeEmbeddingServer(server);
    return server.listen(0, "127.0.0.1").map(s -> holder[0]);
  }

  int port() {
    return server.actualPort();
  }

  Future<Void> close() {
    return server.close();
  }

  /** The configuration with the {@code openai} embedding provider pointed at this server. */
  ArgusConfig configure(ArgusConfig conf) {
    return conf.with("embedding", "baseUrl", "http://127.0.0.1:" + port())
        .with("embedding", "model", MODEL)
        .with("embedding", "dimension", DIMENSION)
        .with("embedding", "maxRetries", 0)
        .with("embedding", "timeoutMs", 10_000)
        .with("embedding", "provider", "openai");
  }

  private void handle(Vertx vertx, HttpServerRequest req) {
    if (!req.path().equals("/v1/embeddings")) {
      req.response().setStatusCode(404).end();
      return;
    }
    req.body().onSuccess(body -> {
      JsonObject json = body.toJsonObject();
      Object rawInput = json.getValue("input");
      JsonArray input = rawInput instanceof JsonArray a ? a : new JsonArray().add(rawInput);
      requests.incrementAndGet();
      inputs.addAndGet(input.size());
      Runnable reply = () -> {
        for (Object o : input) {
          if (String.valueOf(o).contains(POISON)) {
            req.response().setStatusCode(400).putHeader("Content-Type", "application/json")
                .end(new JsonObject().put("error", new JsonObject().put("message", "poisoned input")
                    .put("type", "invalid_request_error")).encode());
            return;
          }
        }
        JsonArray data = new JsonArray();
        for (int i = 0; i < input.size(); i++) {
          texts.add(input.getString(i));
          data.add(new JsonObject().put("object", "embedding").put("index", i).put("embedding", vector(input.getString(i))));
        }
        req.response().putHeader("Content-Type", "application/json").end(new JsonObject().put("object", "list")
            .put("data", data).put("model", MODEL)
            .put("usage", new JsonObject().put("prompt_tokens", 1).put("total_tokens", 1)).encode());
      };
      if (delayMs > 0) {
        vertx.setTimer(delayMs, id -> reply.run());
      } else {
        reply.run();
      }
    });
  }

  static JsonArray vector(String text) {
    float[] v = new float[DIMENSION];
    v[0] = 0.01f;
    for (String token : text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
      if (!token.isEmpty()) {
        v[Math.floorMod(token.hashCode(), DIMENSION)] += 1f;
      }
    }
    JsonArray out = new JsonArray();
    for (float f : v) {
      out.add(f);
    }
    return out;
  }
}
