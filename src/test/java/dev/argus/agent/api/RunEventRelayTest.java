package dev.argus.agent.api;

import dev.argus.agent.StartRun;
import dev.argus.bus.Addresses;
import dev.argus.http.Bus;
import dev.argus.runs.RunEvent;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The relay against a real live run (whole service, real retrieval) and a client that keeps falling behind: its write
 * queue reports full after every third event and drains only 20 ms later. The relay must deliver every event exactly
 * once and in order, catching up from the run's log in pages of {@code maxBuffered}, without one warning per event.
 */
class RunEventRelayTest {

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
  }

  /** A client whose queue is full after every {@code every} writes and drains after {@code drainMs}. */
  private static final class SlowSink implements EventSink {
    final Vertx vertx;
    final List<RunEvent> got = new ArrayList<>();
    final Promise<List<RunEvent>> done = Promise.promise();
    int sinceDrain;
    boolean full;

    SlowSink(Vertx vertx) {
      this.vertx = vertx;
    }

    @Override
    public void write(RunEvent event) {
      got.add(event);
      if (++sinceDrain >= 3) {
        full = true;
      }
    }

    @Override
    public boolean full() {
      return full;
    }

    @Override
    public void onDrain(Runnable action) {
      vertx.setTimer(20, t -> {
        full = false;
        sinceDrain = 0;
        action.run();
      });
    }

    @Override
    public void end() {
      done.tryComplete(got);
    }
  }

  @Test
  void aClientThatKeepsFallingBehindGetsEveryEventOnceInOrder() throws Exception {
    List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
    Handler capture = new Handler() {
      @Override
      public void publish(LogRecord r) {
        if (r.getLevel().intValue() >= Level.WARNING.intValue() && r.getLoggerName().startsWith("io.vertx")) {
          warnings.add(r.getMessage());
        }
      }

      @Override
      public void flush() {
      }

      @Override
      public void close() {
      }
    };
    Logger.getLogger("").addHandler(capture);
    Vertx vertx = Vertx.vertx();
    try {
      TestApp app = await(TestApp.start(vertx, TestApp.config(TestApp.tempDataDir()).with("agent", "cacheTtlMs", 0)));
      var ingest = await(WebClient.create(vertx).post(app.port(), "127.0.0.1", "/api/documents")
          .addQueryParam("wait", "true").sendJsonObject(new JsonObject().put("id", "refund-policy")
              .put("title", "Refund policy").put("format", "text").put("text",
                  "Customers can request a refund within 30 days of delivery. Refunds are paid back to the original "
                      + "payment method. Refunds are processed within 14 days after the returned item arrives at the "
                      + "warehouse. Shipping costs are not refunded. Digital goods cannot be refunded once they were "
                      + "downloaded.")));
      assertEquals(201, ingest.statusCode(), ingest.bodyAsString());

      Bus bus = new Bus(vertx, 10_000);
      SlowSink sink = new SlowSink(vertx);
      Promise<RunEventRelay> started = Promise.promise();
      vertx.runOnContext(v -> {
        RunEventRelay relay = new RunEventRelay(vertx, bus, "relay-run", 4);
        relay.subscribed()
            .compose(x -> bus.request(Addresses.AGENT_RUN_START, new StartRun("relay-run",
                "How long do refunds take to be processed?", null, null, null, null).toJson()))
            .compose(x -> relay.fetch(0))
            .onSuccess(fetched -> {
              relay.attach(sink, 0, fetched);
              started.complete(relay);
            })
            .onFailure(started::fail);
      });
      RunEventRelay relay = await(started.future());
      List<RunEvent> got = await(sink.done.future());

      JsonArray log = await(bus.request(Addresses.AGENT_RUN_EVENTS, new JsonObject().put("runId", "relay-run")
          .put("afterId", 0))).getJsonArray("events");
      assertEquals(log.size(), got.size(), "every event of the run's log, no more");
      for (int i = 0; i < got.size(); i++) {
        assertEquals(i + 1, got.get(i).id(), "event " + i);
        assertEquals(RunEvent.fromJson(log.getJsonObject(i)).type(), got.get(i).type());
      }
      assertEquals("final", got.get(got.size() - 1).type());
      // with a full queue every 3 events, a run of n events makes the client fall behind about n / 3 times
      assertTrue(got.size() > 12, "the run had only " + got.size() + " events");
      assertTrue(relay.timesBehind() >= (got.size() - 1) / 3 - 1, relay.timesBehind() + " of " + got.size());
      assertTrue(relay.replayed() > 0);
      assertTrue(warnings.isEmpty(), warnings.toString());
    } finally {
      Logger.getLogger("").removeHandler(capture);
      await(vertx.close());
    }
  }
}
