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
 * The event journal of one live run: gives each event the next id, writes it to the {@link RunStore} (the events of
 * one burst in one write, writes in order), and only once it is stored keeps it in the in-memory log and publishes it
 * on {@code argus.run.<runId>}. So every id a client ever holds is in the store: after a crash the run resumes after
 * its last stored event and no id is ever given to a different event. Checkpoints are written in order, each after
 * the events before it. Pages of the log serve replays.
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
  /** Events handed to a write that are not yet published. */
  private int unpublished;
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

  /** Numbers one event and schedules its write; it is published once stored. */
  RunEvent append(String type, JsonObject data) {
    RunEvent ev = new RunEvent(runId, nextEventId++, type, data, System.currentTimeMillis());
    unflushed.add(ev);
    if (!flushScheduled) {
      flushScheduled = true;
      // batch the events of one burst (e.g. a token stream) into one write
      vertx.runOnContext(v -> flush());
    }
    return ev;
  }

  /**
   * Writes the unwritten events after the previous write finished, then publishes them; the future completes when
   * they are stored and published. A failed write is logged and the events are published all the same (the run goes
   * on; only a crash before the next successful write could then lose them).
   */
  Future<Void> flush() {
    flushScheduled = false;
    if (unflushed.isEmpty()) {
      return flushing;
    }
    List<RunEvent> batch = new ArrayList<>(unflushed);
    unflushed.clear();
    unpublished += batch.size();
    flushing = flushing.transform(x -> store.appendEvents(batch))
        .onFailure(err -> LOG.log(Level.WARNING, "writing events of run " + runId + " failed", err))
        .transform(ar -> {
          for (RunEvent ev : batch) {
            log.add(ev);
            vertx.eventBus().publish(Addresses.runEvents(runId), ev.toJson());
          }
          unpublished -= batch.size();
          return Future.<Void>succeededFuture();
        });
    return flushing;
  }

  /** Every event appended so far is stored and published. */
  boolean allPublished() {
    return unflushed.isEmpty() && unpublished == 0;
  }

  /** Whether the log ends with drafts that no {@code reset} or {@code token} withdrew or replaced. */
  boolean draftOpen() {
    List<RunEvent> all = new ArrayList<>(log);
    all.addAll(unflushed);
    for (int i = all.size() - 1; i >= 0; i--) {
      String type = all.get(i).type();
      if (RunEvent.DRAFT.equals(type)) {
        return true;
      }
      if (RunEvent.RESET.equals(type) || RunEvent.TOKEN.equals(type)) {
        return false;
      }
    }
    return false;
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

  /**
   * Cluster mode, the run's end: after the writes before it, stores the unwritten events (the terminal ones among
   * them) with the ended record {@code snapshot} in one transaction fenced by the lease ({@code endLeased}: nothing
   * is written when this node no longer holds it), and publishes them only if written. Completes with whether this
   * node ended the run, or failed when the write failed: that failure is logged and the events are published all
   * the same, as {@link #flush} does (the lease then stays, and the run is taken over once this node dies).
   */
  Future<Boolean> end(Run snapshot, String nodeId, int fence) {
    flushScheduled = false;
    List<RunEvent> batch = new ArrayList<>(unflushed);
    unflushed.clear();
    unpublished += batch.size();
    Future<Boolean> ended = Future.join(flushing, checkpointing)
        .transform(x -> store.endLeased(snapshot, batch, nodeId, fence))
        .transform(ar -> {
          boolean mine = ar.failed() || ar.result();
          if (ar.failed()) {
            LOG.log(Level.WARNING, "writing the end of run " + runId + " failed", ar.cause());
          } else if (!mine) {
            LOG.warning("run " + runId + ": its lease was taken over before its end was written; not ended here");
          }
          for (RunEvent ev : mine ? batch : List.<RunEvent>of()) {
            log.add(ev);
            vertx.eventBus().publish(Addresses.runEvents(runId), ev.toJson());
          }
          unpublished -= batch.size();
          return ar.failed() ? Future.<Boolean>failedFuture(ar.cause()) : Future.succeededFuture(mine);
        });
    flushing = ended.<Void>mapEmpty().recover(err -> Future.succeededFuture());
    checkpointing = flushing;
    return ended;
  }

  /** Completes when every event flushed so far is written and published. */
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
