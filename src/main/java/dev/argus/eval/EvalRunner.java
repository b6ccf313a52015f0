package dev.argus.eval;

import dev.argus.bus.Addresses;
import dev.argus.retrieval.Collapse;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs a BEIR evaluation against a running Argus: ingests the corpus through the public ingestion API
 * ({@code POST /api/documents}, jobs polled on {@code GET /api/ingest/jobs/{id}}) so that the real parse/chunk/
 * embed/store pipeline is measured, then sends every query in every mode on {@link Addresses#RETRIEVE_SEARCH}
 * ({@code topK} 100, {@code selfQuery} false, namespace {@value #NAMESPACE}) and scores the rankings.
 * Everything is asynchronous; queries run one at a time so that latencies are not inflated by contention.
 */
public final class EvalRunner {

  public static final String NAMESPACE = "eval";
  public static final int DEPTH = 100;
  private static final long POLL_MS = 250;

  private final Vertx vertx;
  private final WebClient http;
  private final int port;
  private final PrintStream progress;
  private final long searchTimeoutMs;
  private int depth = DEPTH;
  private Collapse collapse = Collapse.NONE;
  private Consumer<JsonObject> rankings = r -> { };

  public EvalRunner(Vertx vertx, WebClient http, int port, PrintStream progress, long searchTimeoutMs) {
    this.vertx = vertx;
    this.http = http;
    this.port = port;
    this.progress = progress;
    this.searchTimeoutMs = searchTimeoutMs;
  }

  /** Results asked per query (default {@value #DEPTH}; recall is measured at this depth). */
  public EvalRunner depth(int depth) {
    this.depth = depth;
    return this;
  }

  /** The searches' {@code collapse} ({@link Collapse#NONE} by default; {@link Collapse#DOCUMENT}: each document once). */
  public EvalRunner collapse(Collapse collapse) {
    this.collapse = collapse;
    return this;
  }

  /**
   * Receives every query's ranking in every mode, {@code {mode, query, results: [{documentId, chunkIndex, score,
   * retrievers}]}}, for analysis outside (e.g. of fusion functions over the legs' own rankings).
   */
  public EvalRunner rankings(Consumer<JsonObject> sink) {
    this.rankings = sink;
    return this;
  }

  /** Totals of an ingestion run. */
  public record IngestSummary(int total, int created, int replaced, int unchanged, int failed, List<String> errors,
                              double seconds) {
  }

  /** Ingests the corpus in batches, one job at a time; document id = the BEIR {@code _id}. */
  public Future<IngestSummary> ingest(List<BeirDataset.CorpusDoc> corpus, int batchSize) {
    long started = System.nanoTime();
    int[] counts = new int[4];
    List<String> errors = new ArrayList<>();
    List<List<BeirDataset.CorpusDoc>> batches = new ArrayList<>();
    for (int i = 0; i < corpus.size(); i += batchSize) {
      batches.add(corpus.subList(i, Math.min(corpus.size(), i + batchSize)));
    }
    int[] done = {0};
    return sequential(batches, batch -> submit(batch).map(job -> {
      counts[0] += job.getInteger("created", 0);
      counts[1] += job.getInteger("replaced", 0);
      counts[2] += job.getInteger("unchanged", 0);
      counts[3] += job.getInteger("failed", 0);
      JsonArray docs = job.getJsonArray("documents", new JsonArray());
      for (int i = 0; i < docs.size() && errors.size() < 10; i++) {
        JsonObject d = docs.getJsonObject(i);
        if ("failed".equals(d.getString("outcome"))) {
          errors.add(d.getString("id") + ": " + d.getString("error"));
        }
      }
      done[0] += batch.size();
      double secs = (System.nanoTime() - started) / 1e9;
      progress.printf("\ringest %s %d/%d documents  (%.1f docs/s)", bar(done[0], corpus.size()), done[0],
          corpus.size(), done[0] / Math.max(secs, 1e-9));
      return null;
    })).map(v -> {
      progress.println();
      return new IngestSummary(corpus.size(), counts[0], counts[1], counts[2], counts[3], errors,
          (System.nanoTime() - started) / 1e9);
    });
  }

  private Future<JsonObject> submit(List<BeirDataset.CorpusDoc> batch) {
    JsonArray documents = new JsonArray();
    for (BeirDataset.CorpusDoc d : batch) {
      String text = d.text().isBlank() ? d.title() : d.text();
      documents.add(new JsonObject().put("id", d.id()).put("title", d.title().isBlank() ? d.id() : d.title())
          .put("text", text).put("namespace", NAMESPACE).put("format", "text").put("source", "beir")
          .put("metadata", d.metadata()));
    }
    return http.post(port, "127.0.0.1", "/api/documents").timeout(600_000)
        .putHeader("Content-Type", "application/json")
        .sendBuffer(Buffer.buffer(new JsonObject().put("documents", documents).encode()))
        .compose(resp -> {
          JsonObject job = jsonOf(resp);
          if (resp.statusCode() != 201 && resp.statusCode() != 202) {
            return Future.failedFuture(new IllegalStateException("ingestion request failed with HTTP "
                + resp.statusCode() + ": " + (job == null ? resp.bodyAsString() : job.getString("error"))));
          }
          return job == null ? Future.failedFuture(new IllegalStateException("ingestion reply is not JSON"))
              : awaitJob(job);
        });
  }

  private Future<JsonObject> awaitJob(JsonObject job) {
    String status = job.getString("status", "");
    if (status.equals("completed") || status.equals("failed")) {
      return Future.succeededFuture(job);
    }
    String id = job.getString("jobId");
    if (id == null) {
      return Future.failedFuture(new IllegalStateException("ingestion reply has no jobId: " + job.encode()));
    }
    Promise<Void> tick = Promise.promise();
    vertx.setTimer(POLL_MS, t -> tick.complete());
    return tick.future()
        .compose(v -> http.get(port, "127.0.0.1", "/api/ingest/jobs/" + id).timeout(30_000).send())
        .compose(resp -> {
          JsonObject next = jsonOf(resp);
          if (resp.statusCode() != 200 || next == null) {
            return Future.failedFuture(new IllegalStateException("job " + id + ": HTTP " + resp.statusCode()));
          }
          return awaitJob(next);
        });
  }

  /**
   * Unmeasured searches for {@code seconds}, cycling through the queries and the modes, so that the measured runs
   * see the steady state of a running service: the JIT compiles the search path over the first tens of seconds
   * of traffic, and the mode evaluated first would otherwise pay for it. (The result cache is off: these searches
   * leave nothing behind that the measured ones could read.)
   */
  public Future<Void> warmUp(List<BeirDataset.Query> queries, List<EvalMode> modes, int seconds) {
    return warmUp(queries, modes, System.nanoTime() + seconds * 1_000_000_000L, 0);
  }

  private Future<Void> warmUp(List<BeirDataset.Query> queries, List<EvalMode> modes, long end, int i) {
    if (queries.isEmpty() || modes.isEmpty() || System.nanoTime() >= end) {
      return Future.succeededFuture();
    }
    return search(queries.get(i % queries.size()).text(), modes.get(i % modes.size()))
        .compose(reply -> warmUp(queries, modes, end, i + 1));
  }

  /** Runs every judged query in every mode and scores it; queries without judgments are skipped. */
  public Future<List<ModeResult>> evaluate(List<BeirDataset.Query> queries, Map<String, Map<String, Integer>> qrels,
                                           List<EvalMode> modes, int k) {
    List<ModeResult> results = new ArrayList<>();
    return sequential(modes, mode -> evaluateMode(mode, queries, qrels, k).map(r -> {
      results.add(r);
      return null;
    })).map(v -> results);
  }

  private Future<ModeResult> evaluateMode(EvalMode mode, List<BeirDataset.Query> queries,
                                          Map<String, Map<String, Integer>> qrels, int k) {
    List<Double> ndcg = new ArrayList<>();
    List<Double> recall = new ArrayList<>();
    List<Double> mrr = new ArrayList<>();
    List<Double> latencies = new ArrayList<>();
    int[] cached = {0};
    return sequential(queries, q -> {
      long t0 = System.nanoTime();
      return search(q.text(), mode).map(reply -> {
        latencies.add((System.nanoTime() - t0) / 1e6);
        if (reply.getBoolean("cached", false)) {
          cached[0]++;
        }
        List<String> ranked = rankedDocumentIds(reply);
        Map<String, Integer> grades = qrels.getOrDefault(q.id(), Map.of());
        ndcg.add(RetrievalMetrics.ndcg(ranked, grades, k));
        recall.add(RetrievalMetrics.recall(ranked, grades, depth));
        mrr.add(RetrievalMetrics.mrr(ranked, grades, depth));
        rankings.accept(ranking(mode, q.id(), reply));
        if (latencies.size() % 25 == 0 || latencies.size() == queries.size()) {
          progress.printf("\r%-8s %s %d/%d queries", mode.label(), bar(latencies.size(), queries.size()),
              latencies.size(), queries.size());
        }
        return null;
      });
    }).map(v -> {
      progress.println();
      return new ModeResult(mode.label(), k, mean(ndcg), mean(recall), mean(mrr), Percentiles.of(latencies, 50),
          Percentiles.of(latencies, 95), queries.size(), cached[0], ndcg);
    });
  }

  private Future<JsonObject> search(String query, EvalMode mode) {
    JsonObject body = new JsonObject().put("query", query).put("topK", depth).put("namespace", NAMESPACE)
        .put("selfQuery", false).put("collapse", collapse.wireName());
    if (mode.retrievers() != null) {
      body.put("retrievers", new JsonArray(mode.retrievers()));
    }
    return vertx.eventBus().<JsonObject>request(Addresses.RETRIEVE_SEARCH, body,
            new DeliveryOptions().setSendTimeout(searchTimeoutMs))
        .map(msg -> msg.body())
        .recover(err -> {
          if (err instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS) {
            return Future.failedFuture(new IllegalStateException("retrieval is not deployed (no consumer on "
                + Addresses.RETRIEVE_SEARCH + ")"));
          }
          return Future.failedFuture(new IllegalStateException("search failed in mode " + mode.label() + " for '"
              + query + "': " + err.getMessage(), err));
        });
  }

  private static JsonObject ranking(EvalMode mode, String queryId, JsonObject reply) {
    JsonArray results = new JsonArray();
    for (Object o : reply.getJsonArray("results", new JsonArray())) {
      JsonObject r = (JsonObject) o;
      results.add(new JsonObject().put("documentId", r.getString("documentId")).put("chunkIndex", r.getInteger("chunkIndex"))
          .put("score", r.getDouble("score")).put("retrievers", r.getJsonObject("retrievers")));
    }
    return new JsonObject().put("mode", mode.label()).put("query", queryId).put("results", results);
  }

  /** Document ids of the reply's results (chunks), in rank order, each document at its first position. */
  static List<String> rankedDocumentIds(JsonObject reply) {
    Set<String> ids = new LinkedHashSet<>();
    JsonArray results = reply.getJsonArray("results", new JsonArray());
    for (int i = 0; i < results.size(); i++) {
      String id = results.getJsonObject(i).getString("documentId");
      if (id != null) {
        ids.add(id);
      }
    }
    return new ArrayList<>(ids);
  }

  private static <T> Future<Void> sequential(List<T> items, Function<T, Future<?>> step) {
    return next(items, 0, step);
  }

  private static <T> Future<Void> next(List<T> items, int i, Function<T, Future<?>> step) {
    if (i >= items.size()) {
      return Future.succeededFuture();
    }
    return step.apply(items.get(i)).compose(v -> next(items, i + 1, step));
  }

  private static JsonObject jsonOf(HttpResponse<Buffer> resp) {
    try {
      return resp.bodyAsJsonObject();
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static double mean(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).average().orElse(0.0);
  }

  private static String bar(int done, int total) {
    int width = 30;
    int filled = total == 0 ? width : (int) ((long) done * width / total);
    return "[" + "#".repeat(filled) + ".".repeat(width - filled) + "]";
  }
}
