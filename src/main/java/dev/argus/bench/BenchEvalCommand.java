package dev.argus.bench;

import dev.argus.app.MainVerticle;
import dev.argus.config.ArgusConfig;
import dev.argus.config.ConfigLoader;
import dev.argus.eval.score.ChatRunView;
import dev.argus.eval.score.ChatScores;
import dev.argus.eval.score.Metric;
import dev.argus.eval.score.Scorecard;
import dev.argus.eval.store.EvalStore;
import dev.argus.eval.store.EvalStores;
import dev.argus.eval.store.Evaluation;
import dev.argus.store.Database;
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
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code argus bench-eval}: (1) scoring throughput of the lexical chat scores on synthetic runs (one thread);
 * (2) stored evaluations per second (scoring plus the SQLite store, {@code --store-concurrency} in flight);
 * (3) chat latency p50/p95 over HTTP/SSE on the sample knowledge base with online evaluation off, then on (same data
 * folder, same questions), and how many runs the evaluator scored meanwhile.
 */
@Command(name = "bench-eval", mixinStandardHelpOptions = true,
    description = "Evaluation throughput and chat p95 with online evaluation on versus off.")
public final class BenchEvalCommand implements Callable<Integer> {

  @Option(names = "--config", defaultValue = "conf/argus.json", description = "configuration file")
  Path config;

  @Option(names = "--runs", defaultValue = "2000", description = "synthetic runs scored (default: ${DEFAULT-VALUE})")
  int runs;

  @Option(names = "--store-concurrency", defaultValue = "8", description = "evaluations saved in flight")
  int storeConcurrency;

  @Option(names = "--requests", defaultValue = "48", description = "chats per setting and concurrency level")
  int requests;

  @Option(names = "--concurrency", defaultValue = "1,8", split = ",", description = "chats in flight")
  int[] concurrency;

  @Option(names = "--skip-chat", description = "only the scoring and store throughput")
  boolean skipChat;

  @Override
  public Integer call() throws Exception {
    JsonObject report = new JsonObject();
    List<ChatRunView> synthetic = synthetic(runs, new Random(7));
    for (int i = 0; i < Math.min(200, runs); i++) {
      ChatScores.score(synthetic.get(i)); // warm-up
    }
    long t0 = System.nanoTime();
    double sink = 0;
    for (ChatRunView v : synthetic) {
      sink += ChatScores.score(v).get(Metric.AGGREGATE);
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    report.put("scoringRunsPerSecond", runs / secs).put("scoringMeanMs", secs * 1000 / runs);
    System.out.printf("lexical scoring: %d runs (30 chunks, 5 sentences each) in %.2f s = %.0f runs/s, %.3f ms per run"
        + " (mean aggregate %.3f) [loadavg %s]%n", runs, secs, runs / secs, secs * 1000 / runs, sink / runs,
        BenchChatCommand.loadavg());

    Vertx vertx = Vertx.vertx();
    Path dir = Files.createTempDirectory("argus-bench-eval-");
    try {
      Database db = BenchChatCommand.await(Database.sqlite(vertx, dir.resolve("store.db")), 120);
      EvalStore store = EvalStores.create(db);
      long s0 = System.nanoTime();
      List<Future<Void>> inFlight = new ArrayList<>();
      for (int i = 0; i < runs; i++) {
        ChatRunView v = synthetic.get(i);
        Scorecard card = ChatScores.score(v);
        inFlight.add(store.save(new Evaluation(v.runId(), Evaluation.CHAT, "bench", System.currentTimeMillis(), card,
            null)));
        if (inFlight.size() >= storeConcurrency) {
          BenchChatCommand.await(Future.all(inFlight), 120);
          inFlight.clear();
        }
      }
      BenchChatCommand.await(Future.all(inFlight), 120);
      double ss = (System.nanoTime() - s0) / 1e9;
      report.put("storedEvaluationsPerSecond", runs / ss);
      System.out.printf("scored and stored (SQLite, %d in flight): %d evaluations in %.2f s = %.0f/s [loadavg %s]%n",
          storeConcurrency, runs, ss, runs / ss, BenchChatCommand.loadavg());
      BenchChatCommand.await(db.close(), 60);
    } finally {
      BenchChatCommand.await(vertx.close(), 60);
    }
    if (!skipChat) {
      chat(report);
    }
    System.out.println(report.encodePrettily());
    return 0;
  }

  private void chat(JsonObject report) throws Exception {
    Path dir = Files.createTempDirectory("argus-bench-eval-chat-");
    JsonObject raw = ConfigLoader.load(config, System.getenv());
    raw.getJsonObject("data").put("dir", dir.toString());
    raw.getJsonObject("http").put("port", 0).put("host", "127.0.0.1");
    raw.getJsonObject("agent").put("cacheTtlMs", 0);
    raw.getJsonObject("retrieval").put("cacheMaxEntries", 0);
    raw.put("llm", raw.getJsonObject("llm", new JsonObject()).put("provider", "none"));
    boolean first = true;
    for (boolean enabled : new boolean[]{false, true}) {
      raw.getJsonObject("ingest").put("loadSamples", first);
      raw.put("eval", raw.getJsonObject("eval", new JsonObject()).put("enabled", enabled));
      first = false;
      Vertx vertx = Vertx.vertx();
      try {
        MainVerticle main = new MainVerticle(ArgusConfig.from(raw));
        BenchChatCommand.await(vertx.deployVerticle(main), 900);
        HttpClient http = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true),
            new PoolOptions().setHttp1MaxSize(64));
        int port = main.httpPort();
        List<String> questions = questions(http, port);
        ChatLoad.run(http, port, questions, Math.min(8, questions.size()), 4);
        for (int c : concurrency) {
          List<ChatLoad.Sample> samples = ChatLoad.run(http, port, questions, requests, c);
          JsonObject r = ChatLoad.summary(samples).put("loadavg", BenchChatCommand.loadavg());
          String key = (enabled ? "evalOn" : "evalOff") + "_c" + c;
          report.put(key, r);
          System.out.printf("evaluation %-3s %2d concurrent: first token p50 %6.1f p95 %6.1f ms | final p50 %6.1f "
                  + "p95 %6.1f ms (%d chats) [loadavg %s]%n", enabled ? "on" : "off", c, r.getDouble("firstTokenP50"),
              r.getDouble("firstTokenP95"), r.getDouble("finalP50"), r.getDouble("finalP95"), samples.size(),
              r.getString("loadavg"));
        }
        if (enabled) {
          Thread.sleep(2000); // CLI thread: let the queue drain
          JsonObject stats = get(http, port, "/api/eval/stats");
          report.put("evaluator", stats.getJsonObject("evaluator"));
          System.out.println("evaluator: " + stats.getJsonObject("evaluator").encode());
        }
      } finally {
        BenchChatCommand.await(vertx.close(), 60);
      }
    }
  }

  private static List<String> questions(HttpClient http, int port) throws Exception {
    for (int i = 0; i < 900; i++) {
      JsonObject page = get(http, port, "/api/documents?limit=100");
      JsonArray docs = page.getJsonArray("documents", new JsonArray());
      if (docs.size() >= 40 || (i > 30 && !docs.isEmpty())) {
        List<String> out = new ArrayList<>();
        for (Object o : docs) {
          out.add("What does the knowledge base say about " + ((JsonObject) o).getString("title") + "?");
        }
        return out;
      }
      Thread.sleep(1000); // CLI thread
    }
    throw new IllegalStateException("the sample knowledge base did not load");
  }

  private static JsonObject get(HttpClient http, int port, String path) throws Exception {
    return BenchChatCommand.await(http.request(new RequestOptions().setMethod(HttpMethod.GET).setHost("127.0.0.1")
        .setPort(port).setURI(path)).compose(r -> r.send()).compose(r -> r.body()).map(Buffer::toJsonObject), 60);
  }

  /** Runs shaped like real ones: 30 retrieved chunks of ~120 words, a 5-sentence answer citing some of them. */
  static List<ChatRunView> synthetic(int n, Random rnd) {
    String[] vocab = new String[600];
    for (int i = 0; i < vocab.length; i++) {
      vocab[i] = "term" + i;
    }
    List<ChatRunView> out = new ArrayList<>(n);
    for (int r = 0; r < n; r++) {
      List<ChatRunView.ContextChunk> ctx = new ArrayList<>();
      for (int c = 0; c < 30; c++) {
        ctx.add(new ChatRunView.ContextChunk("doc" + c + ":0", words(rnd, vocab, 120)));
      }
      StringBuilder answer = new StringBuilder();
      for (int s = 0; s < 5; s++) {
        answer.append(words(rnd, vocab, 18)).append(". [cite:doc").append(rnd.nextInt(30)).append(":0] ");
      }
      out.add(new ChatRunView("bench-" + r, "bench", words(rnd, vocab, 8), answer.toString().trim(), "answer", ctx));
    }
    return out;
  }

  private static String words(Random rnd, String[] vocab, int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append(i == 0 ? "" : " ").append(vocab[rnd.nextInt(vocab.length)]);
    }
    return sb.toString();
  }

  static <T> T await(Future<T> f, int seconds) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(seconds, TimeUnit.SECONDS);
  }
}
