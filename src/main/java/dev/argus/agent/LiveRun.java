package dev.argus.agent;

import dev.argus.runs.Run;

/** A run the coordinator is driving: its current record, its event journal and what the coordinator tracks. */
final class LiveRun {

  Run run;
  final RunJournal journal;
  boolean finished;
  final long startNanos = System.nanoTime();
  long firstTokenMs = -1;
  String cacheKey;

  LiveRun(Run run, RunJournal journal) {
    this.run = run;
    this.journal = journal;
  }

  long elapsedMs() {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }
}
