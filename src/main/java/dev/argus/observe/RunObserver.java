package dev.argus.observe;

import dev.argus.runs.RunEvent;
import io.opentelemetry.api.trace.Span;
import io.vertx.core.json.JsonArray;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Follows the live runs through their published events: feeds {@link RunMeters} with every event and, when a run
 * ends, builds its trace ({@link RunTraceBuilder}) from the events it kept. Keeps at most {@link #MAX_LIVE} runs
 * (the oldest are forgotten: their metrics still count, their trace is not built) and at most {@code 4 ×
 * maxSpansPerRun} events per run. A run resumed by a new process (its {@code run} event published by the previous
 * one) is measured but not traced. Used from the observe verticle's context only.
 */
final class RunObserver {

  static final int MAX_LIVE = 10_000;

  private final RunMeters meters;
  private final Tracing tracing;
  private final int maxSpans;
  private final Map<String, Live> live = new LinkedHashMap<>();

  /** {@code tracing} null: no traces. */
  RunObserver(RunMeters meters, Tracing tracing, int maxSpans) {
    this.meters = meters;
    this.tracing = tracing;
    this.maxSpans = maxSpans;
  }

  /** Takes one published event; returns the run's trace when this event ended a traced run. */
  Optional<RunTrace> onEvent(RunEvent e) {
    Live run = live.get(e.runId());
    if (RunEvent.RUN.equals(e.type()) && run == null) {
      run = new Live(e.data().getString("profile"), e.createdAtMs());
      live.put(e.runId(), run);
      if (live.size() > MAX_LIVE) {
        Iterator<String> oldest = live.keySet().iterator();
        oldest.next();
        oldest.remove();
      }
    }
    meters.onEvent(e, run == null ? null : run.profile, run == null ? 0 : run.startedAtMs);
    if (run == null) {
      return Optional.empty();
    }
    if (tracing != null && RunTraceBuilder.relevant(e.type()) && run.events.size() < 4 * maxSpans) {
      run.events.add(e);
    }
    if (!e.terminal()) {
      return Optional.empty();
    }
    live.remove(e.runId());
    if (tracing == null) {
      return Optional.empty();
    }
    if (!run.events.get(run.events.size() - 1).terminal()) {
      run.events.add(e);
    }
    String[] traceId = {null};
    Span root = new RunTraceBuilder(tracing.tracer(), maxSpans).build(e.runId(),
        run.profile == null ? "unknown" : run.profile, run.events, id -> {
          traceId[0] = id;
          tracing.collector().watch(id);
        });
    JsonArray spans = tracing.collector().take(root.getSpanContext().getTraceId());
    return Optional.of(new RunTrace(e.runId(), traceId[0], e.createdAtMs(), spans));
  }

  int liveRuns() {
    return live.size();
  }

  private static final class Live {
    final String profile;
    final long startedAtMs;
    final List<RunEvent> events = new ArrayList<>();

    Live(String profile, long startedAtMs) {
      this.profile = profile;
      this.startedAtMs = startedAtMs;
    }
  }
}
