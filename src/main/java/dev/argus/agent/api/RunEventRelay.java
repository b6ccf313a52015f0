package dev.argus.agent.api;

import dev.argus.bus.Addresses;
import dev.argus.http.Bus;
import dev.argus.runs.RunEvent;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.MessageConsumerOptions;
import io.vertx.core.json.JsonObject;

import java.util.TreeMap;

/**
 * Relays one run's events to one client, each exactly once and in id order, whatever the timing: it subscribes to
 * {@code argus.run.<runId>} first (bounded buffer), then replays the log after the client's last id from the
 * coordinator, then delivers live events. A gap in the ids (events dropped while the consumer was paused for a slow
 * client, or published before the subscription) is filled by another replay. When the client's write queue is full
 * the consumer pauses until it drains. A client that goes away only unregisters the consumer; the run goes on.
 */
final class RunEventRelay {

  private final Bus bus;
  private final String runId;
  private final MessageConsumer<JsonObject> consumer;
  private final TreeMap<Long, RunEvent> pending = new TreeMap<>();
  private EventSink sink;
  private long lastSent;
  private boolean replaying;
  private boolean ended;

  RunEventRelay(Vertx vertx, Bus bus, String runId, int maxBuffered) {
    this.bus = bus;
    this.runId = runId;
    this.consumer = vertx.eventBus().consumer(new MessageConsumerOptions().setAddress(Addresses.runEvents(runId))
        .setMaxBufferedMessages(maxBuffered));
    this.consumer.handler(m -> onLive(RunEvent.fromJson(m.body())));
  }

  /** Completes when the subscription is registered (subscribe before starting a run so nothing is missed). */
  Future<Void> subscribed() {
    return consumer.completion();
  }

  /** Fetches the events after {@code afterId}; fails (404) when the run does not exist. Call before {@link #attach}. */
  Future<JsonObject> fetch(long afterId) {
    return bus.request(Addresses.AGENT_RUN_EVENTS, new JsonObject().put("runId", runId).put("afterId", afterId));
  }

  /** Starts delivering to {@code sink}: first the fetched events, then live ones. */
  void attach(EventSink sink, long afterId, JsonObject fetched) {
    this.sink = sink;
    this.lastSent = afterId;
    deliverReplay(fetched);
  }

  /** The client went away: stop listening (the run itself is not affected). */
  void cancel() {
    if (!ended) {
      ended = true;
      consumer.unregister();
    }
  }

  private void onLive(RunEvent ev) {
    if (ended) {
      return;
    }
    if (sink == null || replaying || ev.id() != lastSent + 1) {
      if (ev.id() > lastSent) {
        pending.put(ev.id(), ev);
      }
      if (sink != null && !replaying && ev.id() > lastSent + 1) {
        replay();
      }
      return;
    }
    deliver(ev);
    drainPending();
  }

  private void deliver(RunEvent ev) {
    if (ended || ev.id() != lastSent + 1) {
      return;
    }
    sink.write(ev);
    lastSent = ev.id();
    if (ev.terminal()) {
      finish();
    } else if (sink.full()) {
      consumer.pause();
      sink.onDrain(() -> {
        if (!ended) {
          consumer.resume();
        }
      });
    }
  }

  private void drainPending() {
    while (!ended && !pending.isEmpty()) {
      Long first = pending.firstKey();
      if (first <= lastSent) {
        pending.remove(first);
      } else if (first == lastSent + 1) {
        deliver(pending.remove(first));
      } else {
        if (!replaying) {
          replay();
        }
        return;
      }
    }
  }

  private void replay() {
    replaying = true;
    fetch(lastSent).onComplete(ar -> {
      replaying = false;
      if (ar.succeeded()) {
        deliverReplay(ar.result());
      } else if (!ended) {
        sink.write(new RunEvent(runId, lastSent, RunEvent.ERROR, new JsonObject().put("error",
            "lost the run's event stream: " + ar.cause().getMessage()).put("code", "stream_lost"), System.currentTimeMillis()));
        finish();
      }
    });
  }

  private void deliverReplay(JsonObject fetched) {
    for (Object o : fetched.getJsonArray("events")) {
      RunEvent ev = RunEvent.fromJson((JsonObject) o);
      if (ev.id() > lastSent && !ended) {
        pending.remove(ev.id());
        deliver(ev);
      }
    }
    drainPending();
    if (!ended && pending.isEmpty() && fetched.getBoolean("finished", false)) {
      finish(); // a finished run whose log ends without a terminal event (should not happen): do not hang
    }
  }

  private void finish() {
    if (!ended) {
      ended = true;
      consumer.unregister();
      sink.end();
    }
  }
}
