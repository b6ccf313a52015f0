package dev.argus.ingest;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.Map;
import java.util.logging.Logger;

/**
 * Writes jobs to the {@link JobStore} as they change: at once when created and when finished, in between at most
 * once per {@code intervalMs} (a job of 20,000 documents does not rewrite its record 20,000 times). One job's writes
 * run one after the other, each with the job's state at that moment, so the last write is the final state. A failed
 * progress write is logged; the job goes on. Used only on the ingestion verticle's context.
 */
final class JobRecorder {

  private static final Logger LOG = Logger.getLogger(JobRecorder.class.getName());

  private final Vertx vertx;
  private final JobStore store;
  private final long intervalMs;
  private final Map<String, State> states = new HashMap<>();

  private static final class State {
    Future<Void> tail = Future.succeededFuture();
    long lastWriteMs;
    long timer = -1;
  }

  JobRecorder(Vertx vertx, JobStore store, long intervalMs) {
    this.vertx = vertx;
    this.store = store;
    this.intervalMs = intervalMs;
  }

  /**
   * The first write of a new job, with the request it is to run (kept until it finishes, for a restart to resume
   * it); its failure is the caller's (the job must not run unrecorded).
   */
  Future<Void> created(IngestJob job, JsonObject request) {
    State state = new State();
    states.put(job.id(), state);
    state.lastWriteMs = System.currentTimeMillis();
    Future<Void> first = store.create(job.toJson(true), request);
    state.tail = first;
    return first;
  }

  /** A job resumed after a restart: recorded from now on as it changes (its request is kept already). */
  Future<Void> resumed(IngestJob job) {
    State state = new State();
    states.put(job.id(), state);
    return write(job, state);
  }

  /** The job progressed: written now, or once the interval since the last write has passed. */
  void changed(IngestJob job) {
    State state = states.get(job.id());
    if (state == null || state.timer >= 0) {
      return; // finished, or a write is already scheduled (it will take the state of that moment)
    }
    long wait = state.lastWriteMs + intervalMs - System.currentTimeMillis();
    if (wait <= 0) {
      write(job, state).onFailure(err -> LOG.warning("ingestion job " + job.id() + ": recording progress failed: " + err));
    } else {
      state.timer = vertx.setTimer(wait, id -> {
        state.timer = -1;
        write(job, state).onFailure(err -> LOG.warning("ingestion job " + job.id() + ": recording progress failed: "
            + err));
      });
    }
  }

  /** The job's final state, written after any write in flight. */
  Future<Void> finished(IngestJob job) {
    State state = states.remove(job.id());
    if (state == null) {
      return store.save(job.toJson(true));
    }
    vertx.cancelTimer(state.timer);
    return write(job, state);
  }

  private Future<Void> write(IngestJob job, State state) {
    state.lastWriteMs = System.currentTimeMillis();
    Future<Void> next = state.tail.transform(ignored -> store.save(job.toJson(true)));
    state.tail = next;
    return next;
  }
}
