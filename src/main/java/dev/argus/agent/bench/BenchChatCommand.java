package dev.argus.agent.bench;

import dev.argus.MainVerticle;
import dev.argus.config.ArgusConfig;
import dev.argus.config.ConfigLoader;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code argus bench-chat} (hidden; run through {@code scripts/bench-chat}): starts Argus on a fresh data folder with
 * the sample knowledge base and no LLM, asks questions over HTTP/SSE with 1 and 16 chats in flight and reports time
 * to the first {@code token} and to {@code final} (p50/p95) and the coordinator's overhead per phase (bus hops plus
 * checkpoint writes, median). Then restarts it against an OpenAI-compatible test server that answers after a fixed
 * delay and reports Argus's added latency over the model's (4 LLM calls per run).
 */
@Command(name = "bench-chat", hidden = true, mixinStandardHelpOptions = true,
    description = "Benchmark the chat path (time to first token / final, coordinator overhead, LLM overhead).")
public final class BenchChatCommand implements Callable<Integer> {

  @Option(names = "--config", defaultValue = "conf/argus.json", description = "configuration file")
  Path config;

  @Option(names = "--requests", defaultValue = "48", description = "chats per concurrency level")
  int requests;

  @Option(names = "--concurrency", defaultValue = "1,16", split = ",", description = "chats in flight")
  List<Integer> concurrency;

  @Option(names = "--llm-delay-ms", defaultValue = "200", description = "the test LLM's fixed answer delay")
  long llmDelayMs;

  @Option(names = "--llm-requests", defaultValue = "12", description = "chats for the LLM overhead measurement")
  int llmRequests;

  @Option(names = "--wait-docs-s", defaultValue = "600", description = "how long to wait for the samples to load")
  int waitDocsS;

  @Override
  public Integer call() throws Exception {
    Path dir = Files.createTempDirectory("argus-bench-chat-");
    JsonObject raw = ConfigLoader.load(config, System.getenv());
    raw.getJsonObject("data").put("dir", dir.toString());
    raw.getJsonObject("http").put("port", 0).put("host", "127.0.0.1");
    raw.getJsonObject("ingest").put("loadSamples", true);
    raw.getJsonObject("agent").put("cacheTtlMs", 0);
    raw.put("llm", raw.getJsonObject("llm", new JsonObject()).put("provider", "none"));
    JsonObject report = new JsonObject();

    Vertx vertx = Vertx.vertx();
    try {
      MainVerticle main = new MainVerticle(ArgusConfig.from(raw));
      await(vertx.deployVerticle(main), 600);
      HttpClient http = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true),
          new PoolOptions().setHttp1MaxSize(64));
      int port = main.httpPort();
      List<String> questions = questions(http, port);
      System.out.println("knowledge base ready: " + questions.size() + " question(s) from the sample titles");
      // warm-up (JIT, embedder)
      run(http, port, questions, Math.min(8, questions.size()), 4);
      List<String> runIds = new ArrayList<>();
      for (int c : concurrency) {
        List<Sample> samples = run(http, port, questions, requests, c);
        samples.forEach(s -> runIds.add(s.runId));
        JsonObject r = summary(samples);
        report.put("noLlm_c" + c, r);
        System.out.printf("no LLM, %2d concurrent: first token p50 %6.1f ms p95 %6.1f ms | final p50 %6.1f ms p95 %6.1f ms"
            + " (%d chats, %d finals)%n", c, r.getDouble("firstTokenP50"), r.getDouble("firstTokenP95"),
            r.getDouble("finalP50"), r.getDouble("finalP95"), samples.size(), r.getInteger("finals"));
      }
      List<Double> overhead = new ArrayList<>();
      for (String id : runIds) {
        JsonObject run = get(http, port, "/api/runs/" + id);
        for (Object o : run.getJsonObject("timings", new JsonObject()).getJsonArray("overheadMs", new JsonArray())) {
          overhead.add(((Number) o).doubleValue());
        }
      }
      double med = percentile(overhead, 50);
      report.put("coordinatorOverheadMedianMs", med).put("coordinatorOverheadP95Ms", percentile(overhead, 95));
      System.out.printf("coordinator overhead per phase (bus hops + checkpoint): median %.2f ms, p95 %.2f ms over %d phases"
          + " (target <= 2 ms)%n", med, percentile(overhead, 95), overhead.size());
    } finally {
      await(vertx.close(), 60);
    }

    // with a test LLM answering after a fixed delay
    Vertx vertx2 = Vertx.vertx();
    try {
      BenchLlmServer llm = await(new BenchLlmServer(vertx2, llmDelayMs).start(), 10);
      raw.put("llm", raw.getJsonObject("llm").copy().put("provider", "openai").put("baseUrl", llm.baseUrl())
          .put("model", "bench").put("apiKey", "bench").put("maxConcurrent", 64));
      raw.getJsonObject("ingest").put("loadSamples", false); // already loaded in this data folder
      MainVerticle main = new MainVerticle(ArgusConfig.from(raw));
      await(vertx2.deployVerticle(main), 600);
      HttpClient http = vertx2.createHttpClient(new HttpClientOptions().setKeepAlive(true),
          new PoolOptions().setHttp1MaxSize(16));
      List<String> questions = questions(http, main.httpPort());
      run(http, main.httpPort(), questions, 2, 1);
      int before = llm.requests();
      List<Sample> samples = run(http, main.httpPort(), questions, llmRequests, 1);
      double calls = (double) (llm.requests() - before) / samples.size();
      List<Double> added = new ArrayList<>();
      for (Sample s : samples) {
        added.add(s.finalMs - calls * llmDelayMs);
      }
      double addedMed = percentile(added, 50);
      double pct = 100.0 * addedMed / (calls * llmDelayMs);
      report.put("llmDelayMs", llmDelayMs).put("llmCallsPerRun", calls).put("llmAddedMedianMs", addedMed)
          .put("llmAddedPercent", pct).put("llmFinalP50", percentile(samples.stream().map(s -> s.finalMs).toList(), 50));
      System.out.printf("test LLM (%d ms per call, %.1f calls per run): final p50 %.1f ms, Argus adds %.1f ms = %.1f%%"
          + " of the model's time (target <= 10%%)%n", llmDelayMs, calls,
          report.getDouble("llmFinalP50"), addedMed, pct);
      await(llm.close(), 10);
    } finally {
      await(vertx2.close(), 60);
    }
    System.out.println(report.encodePrettily());
    return 0;
  }

  private record Sample(String runId, double firstTokenMs, double finalMs, boolean finalSeen) {
  }

  private static <T> T await(Future<T> f, int seconds) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(seconds, TimeUnit.SECONDS);
  }

  private List<String> questions(HttpClient http, int port) throws Exception {
    long deadline = System.currentTimeMillis() + waitDocsS * 1000L;
    while (true) {
      JsonObject page = get(http, port, "/api/documents?limit=100");
      JsonArray docs = page.getJsonArray("documents", new JsonArray());
      if (!docs.isEmpty()) {
        List<String> out = new ArrayList<>();
        for (Object o : docs) {
          out.add("What does the knowledge base say about " + ((JsonObject) o).getString("title") + "?");
        }
        return out;
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("the sample knowledge base did not load in " + waitDocsS + " s");
      }
      Thread.sleep(1000); // CLI thread, not an event loop
    }
  }

  private static JsonObject get(HttpClient http, int port, String path) throws Exception {
    return await(http.request(new RequestOptions().setMethod(HttpMethod.GET).setHost("127.0.0.1").setPort(port)
        .setURI(path)).compose(r -> r.send()).compose(r -> r.body()).map(Buffer::toJsonObject), 60);
  }

  /** {@code n} chats, {@code c} in flight, each timed from request to first token and to final. */
  private static List<Sample> run(HttpClient http, int port, List<String> questions, int n, int c) throws Exception {
    List<Sample> out = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger next = new AtomicInteger();
    List<Future<Void>> workers = new ArrayList<>();
    for (int w = 0; w < c; w++) {
      workers.add(worker(http, port, questions, n, next, out));
    }
    await(Future.all(workers), 1800);
    return out;
  }

  private static Future<Void> worker(HttpClient http, int port, List<String> questions, int n, AtomicInteger next,
                                     List<Sample> out) {
    int i = next.getAndIncrement();
    if (i >= n) {
      return Future.succeededFuture();
    }
    return chat(http, port, questions.get(i % questions.size())).compose(s -> {
      out.add(s);
      return worker(http, port, questions, n, next, out);
    });
  }

  private static Future<Sample> chat(HttpClient http, int port, String question) {
    long start = System.nanoTime();
    Promise<Sample> done = Promise.promise();
    double[] firstToken = {-1};
    String[] runId = {null};
    StringBuilder buf = new StringBuilder();
    http.request(new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1").setPort(port).setURI("/api/chat")
            .putHeader("Content-Type", "application/json"))
        .compose(req -> req.send(new JsonObject().put("question", question).encode()))
        .onFailure(done::tryFail)
        .onSuccess(resp -> {
          resp.handler(chunk -> {
            buf.append(chunk.toString());
            int end;
            while ((end = buf.indexOf("\n\n")) >= 0) {
              String frame = buf.substring(0, end);
              buf.delete(0, end + 2);
              double ms = (System.nanoTime() - start) / 1e6;
              if (frame.contains("event: token") && firstToken[0] < 0) {
                firstToken[0] = ms;
              } else if (frame.contains("event: run") && runId[0] == null) {
                String data = frame.substring(frame.indexOf("data: ") + 6);
                runId[0] = new JsonObject(data).getString("runId");
              } else if (frame.contains("event: final") || frame.contains("event: error")) {
                done.tryComplete(new Sample(runId[0], firstToken[0] < 0 ? ms : firstToken[0], ms,
                    frame.contains("event: final")));
              }
            }
          });
          resp.endHandler(v -> done.tryComplete(new Sample(runId[0], firstToken[0], (System.nanoTime() - start) / 1e6,
              false)));
        });
    return done.future();
  }

  private static JsonObject summary(List<Sample> samples) {
    return new JsonObject()
        .put("firstTokenP50", percentile(samples.stream().map(s -> s.firstTokenMs).toList(), 50))
        .put("firstTokenP95", percentile(samples.stream().map(s -> s.firstTokenMs).toList(), 95))
        .put("finalP50", percentile(samples.stream().map(s -> s.finalMs).toList(), 50))
        .put("finalP95", percentile(samples.stream().map(s -> s.finalMs).toList(), 95))
        .put("finals", (int) samples.stream().filter(s -> s.finalSeen).count())
        .put("chats", samples.size());
  }

  /** Nearest-rank percentile. */
  static double percentile(List<Double> values, double p) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
  }

}
