package dev.argus.agent;

import dev.argus.bus.Addresses;
import dev.argus.runs.Run;
import dev.argus.runs.RunEvent;
import dev.argus.runs.RunStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The event journal of one live run: gives each event the next id, keeps the log in memory, publishes it on
 * {@code argus.run.<runId>}, and writes events and checkpoints to the {@link RunStore} in order (events of one burst
 * in one write; each checkpoint after the events before it). Pages of the log serve replays.
 *
 * <p>Used from the coordinator verticle's context only (no locking).
 */
final class RunJournal {

  private static final Logger LOG = Logger.getLogger(RunJournal.class.getName());

  private final Vertx vertx;
  private final RunStore store;
  private final String runId;
  private final List<RunEvent> log = new ArrayList<>();
  private final List<RunEvent> unflushed = new ArrayList<>();
  private long nextEventId;
  private boolean flushScheduled;
  private Future<Void> flushing = Future.succeededFuture();
  private Future<Void> checkpointing = Future.succeededFuture();

  /** {@code stored}: the events already in the store (a resumed run); ids continue after {@code lastEventId}. */
  RunJournal(Vertx vertx, RunStore store, String runId, long lastEventId, List<RunEvent> stored) {
    this.vertx = vertx;
    this.store = store;
    this.runId = runId;
    this.nextEventId = lastEventId + 1;
    this.log.addAll(stored);
  }

  /** Numbers, keeps, publishes and schedules the write of one event. */
  RunEvent append(String type, JsonObject data) {
    RunEvent ev = new RunEvent(runId, nextEventId++, type, data, System.currentTimeMillis());
    log.add(ev);
    unflushed.add(ev);
    vertx.eventBus().publish(Addresses.runEvents(runId), ev.toJson());
    if (!flushScheduled) {
      flushScheduled = true;
      // batch the events of one burst (e.g. a token stream) into one write
      vertx.runOnContext(v -> flush());
    }
    return ev;
  }

  /** Writes the unwritten events after the previous write finished; the future completes when they are stored. */
  Future<Void> flush() {
    flushScheduled = false;
    if (unflushed.isEmpty()) {
      return flushing;
    }
    List<RunEvent> batch = new ArrayList<>(unflushed);
    unflushed.clear();
    flushing = flushing.transform(x -> store.appendEvents(batch))
        .onFailure(err -> LOG.log(Level.WARNING, "writing events of run " + runId + " failed", err))
        .recover(err -> Future.succeededFuture());
    return flushing;
  }

  /**
   * Flushes the event log, then saves {@code snapshot}; checkpoints are written in order. {@code writtenMs} gets the
   * time the write took once it is stored. The future completes when this checkpoint is stored.
   */
  Future<Void> checkpoint(Run snapshot, LongConsumer writtenMs) {
    long start = System.nanoTime();
    Future<Void> events = flush();
    checkpointing = checkpointing.transform(x -> events).transform(x -> store.save(snapshot))
        .onFailure(err -> LOG.log(Level.WARNING, "checkpoint of run " + runId + " failed", err))
        .onSuccess(v -> writtenMs.accept((System.nanoTime() - start) / 1_000_000));
    return checkpointing;
  }

  /** Completes when every event appended so far is written. */
  Future<Void> flushed() {
    return flushing;
  }

  /** Flushes, and completes when the events and every checkpoint requested so far are written. */
  Future<Void> settle() {
    return Future.join(flush(), checkpointing).mapEmpty();
  }

  /** A page of the log: the events after {@code afterId}, at most {@code limit} ({@code limit <= 0}: all). */
  JsonObject page(long afterId, int limit) {
    return page(log, afterId, limit);
  }

  /** {@code {events, more}}: {@code more} tells that the page was cut. */
  static JsonObject page(Iterable<RunEvent> events, long afterId, int limit) {
    JsonArray out = new JsonArray();
    boolean more = false;
    for (RunEvent e : events) {
      if (e.id() > afterId) {
        if (limit > 0 && out.size() == limit) {
          more = true;
          break;
        }
        out.add(e.toJson());
      }
    }
    return new JsonObject().put("events", out).put("more", more);
  }
}
