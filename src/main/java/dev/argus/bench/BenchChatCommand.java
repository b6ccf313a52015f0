package dev.argus.bench;

import dev.argus.app.MainVerticle;
import dev.argus.config.ArgusConfig;
import dev.argus.config.ConfigLoader;
import io.vertx.core.Future;
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
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

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

  @Option(names = "--data-dir", description = "use this existing store (e.g. a SciFact store built by eval-retrieval) "
      + "instead of a fresh folder with the sample knowledge base")
  Path dataDir;

  @Option(names = "--queries", description = "ask these questions (a BEIR queries.jsonl, field 'text') instead of "
      + "questions about the sample titles")
  Path queriesFile;

  private int expectedDocs = 1;

  @Override
  public Integer call() throws Exception {
    Path dir = dataDir != null ? dataDir : Files.createTempDirectory("argus-bench-chat-");
    JsonObject raw = ConfigLoader.load(config, System.getenv());
    raw.getJsonObject("data").put("dir", dir.toString());
    raw.getJsonObject("http").put("port", 0).put("host", "127.0.0.1");
    raw.getJsonObject("ingest").put("loadSamples", dataDir == null);
    raw.getJsonObject("agent").put("cacheTtlMs", 0);
    // each level asks the same questions: without this the retrieval cache would serve the later levels
    raw.getJsonObject("retrieval").put("cacheMaxEntries", 0);
    raw.put("llm", raw.getJsonObject("llm", new JsonObject()).put("provider", "none"));
    JsonObject report = new JsonObject();
    expectedDocs = Math.max(1, sampleCount(raw));

    Vertx vertx = Vertx.vertx();
    try {
      MainVerticle main = new MainVerticle(ArgusConfig.from(raw));
      await(vertx.deployVerticle(main), 600);
      HttpClient http = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true),
          new PoolOptions().setHttp1MaxSize(64));
      int port = main.httpPort();
      List<String> questions = questions(http, port);
      System.out.println("knowledge base ready: " + questions.size() + " question(s)"
          + (queriesFile == null ? " from the sample titles" : " from " + queriesFile));
      // warm-up (JIT, embedder)
      ChatLoad.run(http, port, questions, Math.min(8, questions.size()), 4);
      List<String> runIds = new ArrayList<>();
      for (int c : concurrency) {
        List<ChatLoad.Sample> samples = ChatLoad.run(http, port, questions, requests, c);
        samples.forEach(s -> runIds.add(s.runId()));
        JsonObject r = ChatLoad.summary(samples);
        report.put("noLlm_c" + c, r);
        System.out.printf("no LLM, %2d concurrent: first token p50 %6.1f ms p95 %6.1f ms | final p50 %6.1f ms p95 %6.1f ms"
            + " (%d chats, %d finals) [loadavg %s]%n", c, r.getDouble("firstTokenP50"), r.getDouble("firstTokenP95"),
            r.getDouble("finalP50"), r.getDouble("finalP95"), samples.size(), r.getInteger("finals"), loadavg());
        r.put("loadavg", loadavg());
      }
      List<Double> overhead = new ArrayList<>();
      java.util.Map<String, List<Double>> perPhase = new java.util.LinkedHashMap<>();
      for (String id : runIds) {
        JsonObject run = get(http, port, "/api/runs/" + id);
        for (Object o : run.getJsonObject("timings", new JsonObject()).getJsonArray("overheadMs", new JsonArray())) {
          overhead.add(((Number) o).doubleValue());
        }
        for (Object o : run.getJsonArray("chainOfThought", new JsonArray())) {
          JsonObject step = (JsonObject) o;
          if (step.getValue("overheadMs") instanceof Number n) {
            perPhase.computeIfAbsent(step.getString("phase"), k -> new ArrayList<>()).add(n.doubleValue());
          }
        }
      }
      JsonObject phaseMedians = new JsonObject();
      perPhase.forEach((p, xs) -> phaseMedians.put(p, ChatLoad.percentile(xs, 50)));
      report.put("coordinatorOverheadMedianMsByPhase", phaseMedians);
      System.out.println("coordinator overhead per phase, median ms: " + phaseMedians.encode());
      double med = ChatLoad.percentile(overhead, 50);
      report.put("coordinatorOverheadMedianMs", med).put("coordinatorOverheadP95Ms", ChatLoad.percentile(overhead, 95));
      System.out.printf("coordinator overhead per phase (bus hops + checkpoint): median %.2f ms, p95 %.2f ms over %d phases"
          + " (target <= 2 ms)%n", med, ChatLoad.percentile(overhead, 95), overhead.size());
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
      ChatLoad.run(http, main.httpPort(), questions, 2, 1);
      int before = llm.requests();
      List<ChatLoad.Sample> samples = ChatLoad.run(http, main.httpPort(), questions, llmRequests, 1);
      double calls = (double) (llm.requests() - before) / samples.size();
      List<Double> added = new ArrayList<>();
      for (ChatLoad.Sample s : samples) {
        added.add(s.finalMs() - calls * llmDelayMs);
      }
      double addedMed = ChatLoad.percentile(added, 50);
      double pct = 100.0 * addedMed / (calls * llmDelayMs);
      report.put("llmDelayMs", llmDelayMs).put("llmCallsPerRun", calls).put("llmAddedMedianMs", addedMed)
          .put("llmAddedPercent", pct).put("llmFinalP50", ChatLoad.percentile(samples.stream().map(s -> s.finalMs()).toList(), 50));
      System.out.printf("test LLM (%d ms per call, %.1f calls per run): final p50 %.1f ms, Argus adds %.1f ms = %.1f%%"
          + " of the model's time (target <= 10%%) [loadavg %s]%n", llmDelayMs, calls,
          report.getDouble("llmFinalP50"), addedMed, pct, loadavg());
      await(llm.close(), 10);
    } finally {
      await(vertx2.close(), 60);
    }
    System.out.println(report.encodePrettily());
    return 0;
  }

  /** The first three fields of {@code /proc/loadavg} (the machine may be shared), or "n/a". */
  static String loadavg() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (Exception e) {
      return "n/a";
    }
  }

  static <T> T await(Future<T> f, int seconds) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(seconds, TimeUnit.SECONDS);
  }

  /** The number of sample documents listed in {@code <samplesPath>/index.txt} on the classpath (0 if none). */
  private static int sampleCount(JsonObject raw) {
    String path = raw.getJsonObject("ingest").getString("samplesPath", "samples") + "/index.txt";
    try (var in = BenchChatCommand.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) {
        return 0;
      }
      return (int) new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines()
          .map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")).count();
    } catch (java.io.IOException e) {
      return 0;
    }
  }

  /** The questions to ask: from {@code --queries}, or about the sample titles once they are all stored. */
  private List<String> questions(HttpClient http, int port) throws Exception {
    if (queriesFile != null) {
      List<String> out = new ArrayList<>();
      for (String line : Files.readAllLines(queriesFile)) {
        if (!line.isBlank() && out.size() < 400) {
          out.add(new JsonObject(line).getString("text"));
        }
      }
      return out;
    }
    return sampleQuestions(http, port);
  }

  /** Waits until the whole sample knowledge base is stored (not just its first documents), then asks about it. */
  private List<String> sampleQuestions(HttpClient http, int port) throws Exception {
    long deadline = System.currentTimeMillis() + waitDocsS * 1000L;
    int lastTotal = -1;
    int stable = 0;
    while (true) {
      JsonObject page = get(http, port, "/api/documents?limit=100");
      JsonArray docs = page.getJsonArray("documents", new JsonArray());
      int total = page.getInteger("total", docs.size());
      stable = total == lastTotal ? stable + 1 : 0;
      lastTotal = total;
      // all listed samples stored, or no progress for 15 s (a sample that failed to ingest must not stall the bench)
      if (!docs.isEmpty() && (total >= expectedDocs || stable >= 15)) {
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

}
