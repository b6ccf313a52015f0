package dev.argus.agent;

import dev.argus.agent.bench.BenchLlmServer;
import dev.argus.agent.bench.ChatLoad;
import dev.argus.config.ArgusConfig;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Small chat benchmark (run with {@code -Dbench=true -Dtest=ChatBenchTest}) on the whole service (real SQLite store,
 * bundled embedder, real retrieval) with a small corpus ingested through the API; {@code scripts/bench-chat} is the
 * full benchmark on the sample knowledge base.
 */
@EnabledIfSystemProperty(named = "bench", matches = "true")
class ChatBenchTest {

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(600, TimeUnit.SECONDS);
  }

  private static final String[] QUESTIONS = {"How long do refunds take to be processed?",
      "How long does standard shipping take?", "Can digital goods be refunded?", "What do fraud rings share?",
      "How long does international shipping take?", "When can customers request a refund?",
      "What must new sellers verify?", "Which sellers are reviewed manually?"};

  private static void seed(TestApp app, Vertx vertx) throws Exception {
    List<Corpus.Doc> docs = new ArrayList<>(Corpus.standard());
    docs.add(Corpus.doc("fraud-rings", "Fraud rings",
        "Fraud rings often share bank accounts, phone numbers and devices across many seller accounts."));
    await(AgentHarness.seed(vertx, app.port(), docs));
  }

  @Test
  void bench() throws Exception {
    JsonObject report = new JsonObject();
    Vertx vertx = Vertx.vertx();
    try {
      ArgusConfig conf = AgentHarness.config().with("agent", "cacheTtlMs", 0);
      TestApp app = await(TestApp.start(vertx, conf));
      seed(app, vertx);
      HttpClient http = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true),
          new PoolOptions().setHttp1MaxSize(64));
      List<String> qs = List.of(QUESTIONS);
      ChatLoad.run(http, app.port(), qs, 16, 4); // warm-up
      List<String> runIds = new ArrayList<>();
      for (int c : new int[]{1, 16}) {
        List<ChatLoad.Sample> samples = ChatLoad.run(http, app.port(), qs, 64, c);
        samples.forEach(x -> runIds.add(x.runId()));
        report.put("noLlm_c" + c, ChatLoad.summary(samples));
      }
      List<Double> overhead = new ArrayList<>();
      WebClient web = WebClient.create(vertx);
      for (String id : runIds) {
        JsonObject run = await(web.get(app.port(), "127.0.0.1", "/api/runs/" + id).send()).bodyAsJsonObject();
        for (Object o : run.getJsonObject("timings").getJsonArray("overheadMs", new JsonArray())) {
          overhead.add(((Number) o).doubleValue());
        }
      }
      report.put("overheadPerPhaseMedianMs", ChatLoad.percentile(overhead, 50))
          .put("overheadPerPhaseP95Ms", ChatLoad.percentile(overhead, 95)).put("phases", overhead.size());
    } finally {
      await(vertx.close());
    }

    Vertx v2 = Vertx.vertx();
    try {
      long delay = 200;
      BenchLlmServer llm = await(new BenchLlmServer(v2, delay).start());
      ArgusConfig conf = AgentHarness.config().with("agent", "cacheTtlMs", 0)
          .with("llm", "baseUrl", llm.baseUrl()).with("llm", "model", "bench").with("llm", "apiKey", "k")
          .with("llm", "provider", "openai");
      TestApp app = await(TestApp.start(v2, conf));
      seed(app, v2);
      HttpClient http = v2.createHttpClient(new HttpClientOptions().setKeepAlive(true), new PoolOptions().setHttp1MaxSize(8));
      List<String> qs = List.of(QUESTIONS);
      ChatLoad.run(http, app.port(), qs, 2, 1);
      int before = llm.requests();
      List<ChatLoad.Sample> samples = ChatLoad.run(http, app.port(), qs, 16, 1);
      double calls = (double) (llm.requests() - before) / samples.size();
      List<Double> added = new ArrayList<>();
      samples.forEach(x -> added.add(x.finalMs() - calls * delay));
      double med = ChatLoad.percentile(added, 50);
      report.put("llmDelayMs", delay).put("llmCallsPerRun", calls).put("llmAddedMedianMs", med)
          .put("llmAddedPercent", 100 * med / (calls * delay))
          .put("llmFinalP50", ChatLoad.percentile(samples.stream().map(ChatLoad.Sample::finalMs).toList(), 50))
          .put("llmFinals", samples.stream().filter(ChatLoad.Sample::finalSeen).count());
    } finally {
      await(v2.close());
    }
    System.out.println("BENCH-CHAT " + report.encodePrettily());
  }
}
