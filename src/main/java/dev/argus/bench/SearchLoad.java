package dev.argus.bench;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Closed-loop clients of {@code POST /api/search} for {@code argus bench-search}: each client sends a search, waits
 * for the answer, records its latency and the server's stage timings, and sends the next, cycling through the
 * queries (one sequence shared by every run, so that a run does not repeat the previous one's queries).
 */
final class SearchLoad {

  /** The {@code timings} fields of a search response, summed per run. */
  static final List<String> STAGES = List.of("selfQueryMs", "embedMs", "vectorMs", "keywordMs", "trigramMs",
      "fusionMs", "totalMs");

  /** One run's latencies (ms, in send order), its length, its failures and the server's stage timings summed. */
  record Run(double[] latencies, double seconds, int errors, double[] server) {
  }

  private final WebClient web;
  private final List<String> texts;
  private final int topK;
  private final List<String> retrievers;
  private final AtomicInteger next = new AtomicInteger();

  SearchLoad(WebClient web, List<String> texts, int topK, List<String> retrievers) {
    this.web = web;
    this.texts = texts;
    this.topK = topK;
    this.retrievers = retrievers == null ? List.of() : List.copyOf(retrievers);
  }

  /** {@code total} searches from {@code concurrency} clients. */
  Future<Run> run(int concurrency, int total) {
    double[] server = new double[STAGES.size()];
    if (total == 0) {
      return Future.succeededFuture(new Run(new double[0], 1e-9, 0, server));
    }
    double[] latencies = new double[total];
    AtomicInteger issued = new AtomicInteger();
    AtomicInteger done = new AtomicInteger();
    AtomicInteger errors = new AtomicInteger();
    Promise<Void> finished = Promise.promise();
    long start = System.nanoTime();
    for (int i = 0; i < concurrency; i++) {
      loop(issued, done, errors, latencies, server, total, finished);
    }
    return finished.future().map(v -> new Run(latencies, (System.nanoTime() - start) / 1e9, errors.get(), server));
  }

  private void loop(AtomicInteger issued, AtomicInteger done, AtomicInteger errors, double[] latencies,
                    double[] server, int total, Promise<Void> finished) {
    int slot = issued.getAndIncrement();
    if (slot >= total) {
      return;
    }
    String query = texts.get(Math.floorMod(next.getAndIncrement(), texts.size()));
    JsonObject body = new JsonObject().put("query", query).put("topK", topK);
    if (!retrievers.isEmpty()) {
      body.put("retrievers", new JsonArray(new ArrayList<>(retrievers)));
    }
    long t = System.nanoTime();
    web.post("/api/search").sendJsonObject(body).onComplete(ar -> {
      latencies[slot] = (System.nanoTime() - t) / 1e6;
      if (ar.failed() || ar.result().statusCode() != 200) {
        if (errors.incrementAndGet() <= 3) {
          System.err.println("search failed: " + (ar.failed() ? ar.cause() : ar.result().statusCode() + " "
              + ar.result().bodyAsString()));
        }
      } else {
        JsonObject timings = ar.result().bodyAsJsonObject().getJsonObject("timings", new JsonObject());
        synchronized (server) {
          for (int i = 0; i < STAGES.size(); i++) {
            server[i] += timings.getDouble(STAGES.get(i), 0.0);
          }
        }
      }
      if (done.incrementAndGet() == total) {
        finished.tryComplete();
      } else {
        loop(issued, done, errors, latencies, server, total, finished);
      }
    });
  }
}
