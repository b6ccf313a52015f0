package dev.argus.agent.api;

import dev.argus.bus.Addresses;
import dev.argus.http.Bus;
import dev.argus.runs.RunEvent;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;

import java.util.TreeMap;
import java.util.logging.Logger;

/**
 * Relays one run's events to one client, each exactly once and in id order, whatever the timing. It subscribes to
 * {@code argus.run.<runId>} first, then replays the log after the client's last id from the coordinator (in pages of
 * at most {@code maxBuffered} events), then delivers live events.
 *
 * <p>The run's log is the source of truth, so the relay never buffers much: live events that arrive while a replay is
 * in flight wait in a small ordered buffer (at most {@code maxBuffered}); any it has to skip are fetched again. When
 * the client's write queue fills, the relay falls <em>behind</em>: it ignores live events (they are in the log) and,
 * once the client has drained, catches up page by page from the log, then returns to live delivery. Nothing is
 * dropped, nothing is buffered without bound, and there is one log line per stream that fell behind, not one per
 * event. A client that goes away only unregisters the consumer; the run goes on.
 */
final class RunEventRelay {

  private static final Logger LOG = Logger.getLogger(RunEventRelay.class.getName());

  private final Bus bus;
  private final String runId;
  private final int maxBuffered;
  private final MessageConsumer<JsonObject> consumer;
  private final TreeMap<Long, RunEvent> pending = new TreeMap<>();
  private EventSink sink;
  private long lastSent;
  /** A fetch from the log is in flight: live events wait in {@link #pending}. */
  private boolean replaying;
  /** The client's write queue was full: live events are ignored until it drains and the relay has caught up. */
  private boolean behind;
  /** A live event was ignored since the last replay started: replay once more before relying on live events. */
  private boolean skippedLive;
  private boolean ended;
  private int timesBehind;
  private long replayed;

  RunEventRelay(Vertx vertx, Bus bus, String runId, int maxBuffered) {
    this.bus = bus;
    this.runId = runId;
    this.maxBuffered = Math.max(1, maxBuffered);
    // never paused, so the consumer's own buffer stays empty: backpressure is handled here (see the class comment)
    this.consumer = vertx.eventBus().consumer(Addresses.runEvents(runId));
    this.consumer.handler(m -> onLive(RunEvent.fromJson(m.body())));
  }

  /** Completes when the subscription is registered (subscribe before starting a run so nothing is missed). */
  Future<Void> subscribed() {
    return consumer.completion();
  }

  /**
   * Fetches (at most {@code maxBuffered} of) the events after {@code afterId}; fails (404) when the run does not
   * exist. Call before {@link #attach}.
   */
  Future<JsonObject> fetch(long afterId) {
    return bus.request(Addresses.AGENT_RUN_EVENTS, new JsonObject().put("runId", runId).put("afterId", afterId)
        .put("limit", maxBuffered));
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
      logIfFellBehind();
    }
  }

  private void onLive(RunEvent ev) {
    if (ended || ev.id() <= lastSent) {
      return;
    }
    if (behind) {
      skippedLive = true; // it is in the log; the catch-up replays it
      return;
    }
    if (sink == null || replaying || ev.id() != lastSent + 1) {
      if (pending.size() < maxBuffered || ev.id() < pending.lastKey()) {
        pending.put(ev.id(), ev);
        if (pending.size() > maxBuffered) {
          pending.pollLastEntry();
          skippedLive = true;
        }
      } else {
        skippedLive = true;
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
    if (ended || behind || ev.id() != lastSent + 1) {
      return;
    }
    sink.write(ev);
    lastSent = ev.id();
    if (ev.terminal()) {
      finish();
    } else if (sink.full()) {
      fallBehind();
    }
  }

  /** The client is not keeping up: stop delivering until it drains, then catch up from the log. */
  private void fallBehind() {
    behind = true;
    timesBehind++;
    pending.clear();
    sink.onDrain(() -> {
      if (!ended && behind) {
        behind = false;
        replay();
      }
    });
  }

  private void drainPending() {
    while (!ended && !behind && !pending.isEmpty()) {
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
    skippedLive = false;
    fetch(lastSent).onComplete(ar -> {
      replaying = false;
      if (ended) {
        return;
      }
      if (ar.succeeded()) {
        deliverReplay(ar.result());
      } else {
        sink.write(new RunEvent(runId, lastSent, RunEvent.ERROR, new JsonObject().put("error",
            "lost the run's event stream: " + ar.cause().getMessage()).put("code", "stream_lost"), System.currentTimeMillis()));
        finish();
      }
    });
  }

  private void deliverReplay(JsonObject fetched) {
    for (Object o : fetched.getJsonArray("events")) {
      if (ended || behind) {
        return; // the rest is fetched again once the client drained
      }
      RunEvent ev = RunEvent.fromJson((JsonObject) o);
      if (ev.terminal() && ev.id() > lastSent + 1 && pending.isEmpty()) {
        // the stored log skips to its end: a decision run whose node died, ended by the node that took it over
        // (RecordedRuns: the events its dead node streamed were never stored)
        lastSent = ev.id() - 1;
      }
      if (ev.id() > lastSent) {
        pending.remove(ev.id());
        if (timesBehind > 0) {
          replayed++;
        }
        deliver(ev);
      }
    }
    if (ended || behind) {
      return;
    }
    if (fetched.getBoolean("more", false)) {
      replay(); // next page
      return;
    }
    drainPending();
    if (ended || behind || replaying) {
      return;
    }
    if (skippedLive) {
      replay(); // live events were ignored meanwhile: fetch them from the log rather than wait for the next one
    } else if (pending.isEmpty() && fetched.getBoolean("finished", false)) {
      finish(); // a finished run whose log ends without a terminal event (should not happen): do not hang
    }
  }

  private void finish() {
    if (!ended) {
      ended = true;
      consumer.unregister();
      sink.end();
      logIfFellBehind();
    }
  }

  /** How often the client fell behind (for tests and the log line). */
  int timesBehind() {
    return timesBehind;
  }

  /** Events sent from the log after the client first fell behind. */
  long replayed() {
    return replayed;
  }

  private void logIfFellBehind() {
    if (timesBehind > 0) {
      LOG.info("run " + runId + ": the client fell behind " + timesBehind + " time(s); " + replayed
          + " event(s) were sent from the run's log instead of live");
    }
  }
}
