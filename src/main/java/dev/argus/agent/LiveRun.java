package dev.argus.agent;

import dev.argus.runs.Run;
import dev.argus.runs.RunEvent;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;

/** A run the coordinator is driving: its current record, the event log in memory and what is not yet written. */
final class LiveRun {

  Run run;
  final String profile;
  long nextEventId;
  final List<RunEvent> log = new ArrayList<>();
  final List<RunEvent> unflushed = new ArrayList<>();
  Future<Void> flushing = Future.succeededFuture();
  Future<Void> checkpointing = Future.succeededFuture();
  boolean flushScheduled;
  boolean finished;
  final long startNanos = System.nanoTime();
  long firstTokenMs = -1;
  String cacheKey;

  LiveRun(Run run, long lastEventId) {
    this.run = run;
    this.profile = run.profile();
    this.nextEventId = lastEventId + 1;
  }

  long elapsedMs() {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }
}
