package dev.argus.backtest;

import dev.argus.agent.SseClient;
import dev.argus.config.ArgusConfig;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A backtest survives a restart of the service (real SQLite file, real HTTP, real SSE): run one, stop the service,
 * start a new one on the same data folder, and read the job, its report, its verdicts and the list from the store.
 */
class BacktestRestartTest {

  @Test
  void aFinishedBacktestIsAnsweredAfterARestart() {
    Vertx vertx = Vertx.vertx();
    Path dir = TestApp.tempDataDir();
    ArgusConfig conf = TestApp.config(dir).with("backtest", "concurrency", 2);
    TestApp first = await(TestApp.start(vertx, conf));
    WebClient c1 = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(first.port()));
    HttpResponse<Buffer> r = await(c1.post("/api/backtests").putHeader("Content-Type", "application/jsonl")
        .sendBuffer(Buffer.buffer(BacktestFixtures.world())));
    assertEquals(202, r.statusCode(), r.bodyAsString());
    String id = r.bodyAsJsonObject().getString("backtestId");
    SseClient.Result events = await(new SseClient(vertx, first.port()).get("/api/backtests/" + id + "/events", null,
        ev -> ev.type().equals(BacktestEvent.DONE)), 300);
    JsonObject done = events.last(BacktestEvent.DONE).data();
    assertEquals("completed", done.getString("status"), done.encodePrettily());
    JsonObject report = done.getJsonObject("report");
    c1.close();
    await(first.stop());

    TestApp second = await(TestApp.start(vertx, conf));
    WebClient c2 = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(second.port()));
    try {
      HttpResponse<Buffer> job = await(c2.get("/api/backtests/" + id).send());
      assertEquals(200, job.statusCode(), job.bodyAsString());
      assertEquals("completed", job.bodyAsJsonObject().getString("status"));
      assertEquals(report, job.bodyAsJsonObject().getJsonObject("report"));
      // five labelled sellers decided (S-1..S-5), served a page at a time from the stored verdicts
      JsonObject page = await(c2.get("/api/backtests/" + id + "/decisions?limit=2").send()).bodyAsJsonObject();
      assertEquals(5, page.getInteger("total"), page.encodePrettily());
      assertEquals(2, page.getJsonArray("decisions").size());
      JsonObject mules = await(c2.get("/api/backtests/" + id + "/decisions?pattern=mule_network").send())
          .bodyAsJsonObject();
      assertEquals(2, mules.getInteger("total"), mules.encodePrettily());
      assertTrue(await(c2.get("/api/backtests").send()).bodyAsJsonObject().getJsonArray("backtests").stream()
          .anyMatch(j -> id.equals(((JsonObject) j).getString("backtestId"))));
      HttpResponse<Buffer> unknown = await(c2.get("/api/backtests/no-such-backtest").send());
      assertEquals(404, unknown.statusCode());
      assertEquals("unknown_backtest", unknown.bodyAsJsonObject().getString("code"));
    } finally {
      c2.close();
      await(second.stop());
      await(vertx.close());
    }
  }
}
