package dev.argus.observe;

import dev.argus.agent.SseClient;
import dev.argus.config.ArgusConfig;
import dev.argus.metrics.Metrics;
import dev.argus.testing.FakeOpenAiServer;
import dev.argus.testing.FakeReply;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A phase that times out ends with a {@code phase} event that names no {@code path}; the run meters count it as a
 * failed phase on path {@code none} (regression: found by scripts/prove-load under 200 streams, where phases timed
 * out and {@code Set.of(..).contains(null)} threw in the observer for every such event, so none was counted).
 */
class PhaseTimeoutMetersTest {

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(180, TimeUnit.SECONDS);
  }

  @Test
  void aTimedOutPhaseIsCountedAsFailedOnPathNone() throws Exception {
    Vertx vertx = Metrics.vertxWithMetrics(new VertxOptions());
    try {
      FakeOpenAiServer llm = await(FakeOpenAiServer.start(vertx));
      llm.respondWith(r -> FakeReply.text("late").delay(3_000)); // longer than the phase may take
      JsonObject raw = TestApp.config(TestApp.tempDataDir()).with("agent", "cacheTtlMs", 0)
          .with("agent", "phaseTimeoutMs", 500).raw().copy();
      raw.getJsonObject("llm").mergeIn(llm.conf().put("maxRetries", 0));
      TestApp app = await(TestApp.start(vertx, ArgusConfig.from(raw)));
      SseClient.Result chat = await(new SseClient(vertx, app.port()).post("/api/chat",
          new JsonObject().put("question", "How long do refunds take?"), null));
      assertEquals("error", chat.types().get(chat.types().size() - 1), chat.types().toString());

      HttpResponse<Buffer> r = await(WebClient.create(vertx).get(app.port(), "127.0.0.1", "/metrics").send());
      assertEquals(200, r.statusCode());
      Prometheus p = new Prometheus(r.bodyAsString());
      // one run, its first phase (think) timed out: one failed think phase without a path, one failed run
      assertEquals(1.0, p.require("argus_phase_duration_seconds_count", "phase", "think", "path", "none",
          "outcome", "failed"), p.grep("argus_phase"));
      assertEquals(1.0, p.require("argus_runs_total", "status", "failed"));
    } finally {
      await(vertx.close());
    }
  }
}
