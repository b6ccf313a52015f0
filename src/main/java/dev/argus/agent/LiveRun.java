package dev.argus.agent;

import dev.argus.agent.phases.Phase;
import dev.argus.agent.phases.PhaseResult;
import dev.argus.runs.Run;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** A run the coordinator is driving: its current record, its event journal and what the coordinator tracks. */
final class LiveRun {

  Run run;
  final RunJournal journal;
  boolean finished;
  /** Cluster mode: another node took the run over; nothing more is emitted or saved here. */
  boolean abandoned;
  /** Cluster mode: the lease was confirmed before the run's terminal events. */
  boolean confirmed;
  /** Cluster mode: the lease's hand-over count when this node took the run (0 when it started it): fences its end. */
  int fence;
  final long startNanos = System.nanoTime();
  long firstTokenMs = -1;
  /** Drafts were streamed that no {@code reset} withdrew yet. */
  boolean draftOpen;
  String cacheKey;

  LiveRun(Run run, RunJournal journal) {
    this.run = run;
    this.journal = journal;
  }

  long elapsedMs() {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  /** Keeps a phase's result in the run: output, chain of thought, fallback notes, usage, timings, evidence. */
  void record(Phase phase, PhaseResult result) {
    String name = phase.wire();
    run.phases().put(name, new JsonObject().put("output", result.output()).put("path", result.path())
        .put("durationMs", result.durationMs()).put("loop", run.loopCount()));
    run.chainOfThought().add(new JsonObject().put("phase", name).put("path", result.path())
        .put("thought", result.thought()).put("loop", run.loopCount()).put("durationMs", result.durationMs()));
    for (String note : result.notes()) {
      run.fallbacks().add(new JsonObject().put("phase", name).put("note", note));
    }
    run.usage().put("promptTokens", run.usage().getInteger("promptTokens", 0) + result.usage().promptTokens())
        .put("completionTokens", run.usage().getInteger("completionTokens", 0) + result.usage().completionTokens());
    run.timings().put(name, run.timings().getLong(name, 0L) + result.durationMs());
    if (phase == Phase.ACT) {
      for (Object e : result.output().getJsonArray("evidence", new JsonArray())) {
        run.evidence().add(e);
      }
    }
  }
}
