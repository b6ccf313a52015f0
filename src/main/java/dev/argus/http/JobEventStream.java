package dev.argus.http;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Server-Sent Events of one background job (record loading, backtests, adversarial runs): subscribes to the job's
 * event address first, then takes its snapshot, then relays the events newer than the snapshot until {@code done}.
 * Events on the bus are {@code {seq, type, data}}; the snapshot carries {@code status} and {@code lastEventId}. A
 * job that has already ended answers its snapshot as one {@code done} event. A slow client pauses the bus consumer
 * (back-pressure) instead of buffering without bound.
 */
public final class JobEventStream {

  public static final String PROGRESS = "progress";
  public static final String DONE = "done";

  private JobEventStream() {
  }

  /**
   * @param eventAddress where the job publishes its events
   * @param snapshot     the job's current state (its failure fails the request, e.g. 404)
   * @param running      whether a snapshot is of a job still going
   * @param progressView what of a running job's snapshot the first {@code progress} event shows
   */
  public static void serve(Vertx vertx, RoutingContext ctx, long heartbeatMs, String eventAddress,
                           Supplier<Future<JsonObject>> snapshot, Function<JsonObject, Boolean> running,
                           Function<JsonObject, JsonObject> progressView) {
    Deque<JsonObject> pending = new ArrayDeque<>();
    SseStream[] stream = new SseStream[1];
    long[] sent = {Long.MAX_VALUE}; // nothing is relayed before the snapshot
    MessageConsumer<JsonObject> consumer = vertx.eventBus().consumer(eventAddress);
    Runnable drain = () -> {
      while (stream[0] != null && !stream[0].isClosed() && !pending.isEmpty()) {
        JsonObject ev = pending.poll();
        long seq = ev.getLong("seq");
        if (seq <= sent[0]) {
          continue;
        }
        sent[0] = seq;
        stream[0].send(Long.toString(seq), ev.getString("type"), ev.getJsonObject("data"));
        if (DONE.equals(ev.getString("type"))) {
          stream[0].end();
        }
      }
      if (stream[0] != null && stream[0].writeQueueFull()) {
        consumer.pause();
        stream[0].onDrain(consumer::resume);
      }
    };
    consumer.handler(msg -> {
      pending.add(msg.body());
      drain.run();
    });
    consumer.completion()
        .compose(v -> snapshot.get())
        .onSuccess(job -> {
          SseStream s = SseStream.start(vertx, ctx.response(), heartbeatMs).onClose(consumer::unregister);
          long seq = job.getLong("lastEventId", 0L);
          if (!running.apply(job)) {
            s.send(Long.toString(seq), DONE, job);
            s.end();
            return;
          }
          s.send(Long.toString(seq), PROGRESS, progressView.apply(job));
          stream[0] = s;
          sent[0] = seq;
          drain.run();
        })
        .onFailure(err -> {
          consumer.unregister();
          ctx.fail(err);
        });
  }
}
