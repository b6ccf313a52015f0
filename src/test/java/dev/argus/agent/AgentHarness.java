package dev.argus.agent;

import dev.argus.config.ArgusConfig;
import dev.argus.runs.RunStore;
import dev.argus.runs.RunStores;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts the whole service for an agent test ({@link TestApp}: MainVerticle with the real SQLite knowledge store,
 * bundled embedder, ingestion, {@code DocumentsVerticle}, {@code RetrievalVerticle}, the agent verticles and HTTP on a
 * free port), then ingests the test documents through {@code POST /api/documents} and checks that the real chunker
 * cut each into the chunks the test expects.
 */
final class AgentHarness {

  final Vertx vertx;
  final TestApp app;
  final RunStore runs;

  private AgentHarness(Vertx vertx, TestApp app) {
    this.vertx = vertx;
    this.app = app;
    this.runs = RunStores.create(app.main().services().database());
  }

  /** The test configuration: small chunks without overlap, so that each {@link Corpus.Doc} chunk is one chunk. */
  static ArgusConfig config(Path dataDir) {
    return TestApp.config(dataDir).with("ingest", "chunkTargetChars", 125).with("ingest", "chunkMaxChars", 400)
        .with("ingest", "overlapSentences", 0);
  }

  static ArgusConfig config() {
    return config(TestApp.tempDataDir());
  }

  /** {@code conf} with section {@code llm} pointing at a fake provider (its settings, then the overrides). */
  static ArgusConfig withLlm(ArgusConfig conf, JsonObject llm) {
    JsonObject raw = conf.raw().copy();
    raw.getJsonObject("llm").mergeIn(llm);
    return ArgusConfig.from(raw);
  }

  static Future<AgentHarness> start(Vertx vertx, ArgusConfig conf, List<Corpus.Doc> docs) {
    return TestApp.start(vertx, conf).compose(app -> seed(vertx, app.port(), docs).map(v -> new AgentHarness(vertx, app)));
  }

  /** Ingests the documents (waiting for the job) and checks their chunks against the expected ones. */
  static Future<Void> seed(Vertx vertx, int port, List<Corpus.Doc> docs) {
    if (docs.isEmpty()) {
      return Future.succeededFuture();
    }
    WebClient web = WebClient.create(vertx);
    JsonArray batch = new JsonArray();
    for (Corpus.Doc d : docs) {
      batch.add(new JsonObject().put("id", d.id()).put("title", d.title()).put("namespace", d.namespace())
          .put("text", d.text()).put("format", "text"));
    }
    return web.post(port, "127.0.0.1", "/api/documents").addQueryParam("wait", "true")
        .sendJsonObject(new JsonObject().put("documents", batch))
        .compose(resp -> {
          if (resp.statusCode() != 201 || !"completed".equals(resp.bodyAsJsonObject().getString("status"))
              || resp.bodyAsJsonObject().getInteger("failed", 0) > 0) {
            return Future.failedFuture("ingestion failed: " + resp.statusCode() + " " + resp.bodyAsString());
          }
          List<Future<Void>> checks = new ArrayList<>();
          for (Corpus.Doc d : docs) {
            checks.add(web.get(port, "127.0.0.1", "/api/documents/" + d.id()).send().compose(r -> {
              List<String> got = new ArrayList<>();
              r.bodyAsJsonObject().getJsonArray("chunks").forEach(c -> got.add(((JsonObject) c).getString("text")));
              return got.equals(d.chunks()) ? Future.succeededFuture()
                  : Future.failedFuture("document " + d.id() + " was chunked as " + got + ", expected " + d.chunks());
            }));
          }
          return Future.all(checks).<Void>mapEmpty();
        })
        .eventually(() -> {
          web.close();
          return Future.succeededFuture();
        });
  }

  int port() {
    return app.port();
  }
}
