package dev.argus.observe;

import dev.argus.runs.RunEvent;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Turns the events of one ended run into its OpenTelemetry trace: a {@code run} span (the whole run) with a child
 * per phase ({@code phase <name>}, one per pass: Reflect may send the run back to Plan); under a phase answered by
 * the LLM an {@code llm <phase>} span with the tokens it used; under Act a {@code tool <name>} span per call
 * (attempts, outcome, error); under a search tool a {@code store <leg>} span per retrieval leg that ran (the store
 * query's own duration, started after the query embedding). Times come from the events (when each was journaled)
 * and the durations they carry. Spans beyond {@code maxSpans} are dropped and counted on the run span.
 *
 * <p>Pure apart from the tracer: built on the observe verticle's context when the run's {@code final} or
 * {@code error} event passes.
 */
final class RunTraceBuilder {

  /** The event types a trace is built from (answer text, drafts and citations are not needed). */
  static boolean relevant(String type) {
    return switch (type) {
      case RunEvent.RUN, RunEvent.PHASE, RunEvent.TOOL_CALL, RunEvent.TOOL_RESULT, RunEvent.AGENT_LOG,
           RunEvent.FINAL, RunEvent.ERROR -> true;
      default -> false;
    };
  }

  private final Tracer tracer;
  private final int maxSpans;
  private int spans;
  private int dropped;

  RunTraceBuilder(Tracer tracer, int maxSpans) {
    this.tracer = tracer;
    this.maxSpans = maxSpans;
  }

  /**
   * Builds and ends every span of the run; returns the run span (ended last). {@code started} hears the trace id
   * as soon as the run span exists, before any span ends (so that a collector can keep them).
   */
  Span build(String runId, String profile, List<RunEvent> events, java.util.function.Consumer<String> started) {
    RunEvent first = events.get(0);
    RunEvent last = events.get(events.size() - 1);
    Span run = tracer.spanBuilder("run " + profile).setNoParent().setSpanKind(SpanKind.INTERNAL)
        .setStartTimestamp(first.createdAtMs(), TimeUnit.MILLISECONDS)
        .setAttribute("argus.run.id", runId).setAttribute("argus.profile", profile).startSpan();
    started.accept(run.getSpanContext().getTraceId());
    spans = 1;
    Context runCtx = Context.root().with(run);
    PhaseSpan phase = null;
    Map<Integer, RunEvent> calls = new HashMap<>();
    int fallbacks = 0;
    for (RunEvent e : events) {
      JsonObject d = e.data();
      switch (e.type()) {
        case RunEvent.PHASE -> {
          if ("start".equals(d.getString("status"))) {
            phase = new PhaseSpan(d.getString("name", "phase"), e.createdAtMs(), d.getInteger("loop", 0));
          } else if (phase != null) {
            endPhase(runCtx, phase, e);
            phase = null;
          }
        }
        case RunEvent.TOOL_CALL -> calls.put(d.getInteger("index", -1), e);
        case RunEvent.TOOL_RESULT -> {
          if (phase != null) {
            phase.tools.add(new ToolCall(calls.remove(d.getInteger("index", -1)), e));
          }
        }
        case RunEvent.AGENT_LOG -> fallbacks += d.getBoolean("fallback", false) ? 1 : 0;
        default -> {
        }
      }
    }
    if (phase != null) {
      // the run ended inside a phase (an error): close it at the run's end
      endPhase(runCtx, phase, last);
    }
    run.setAttribute("argus.run.status", RunEvent.ERROR.equals(last.type()) ? "failed" : "completed");
    run.setAttribute("argus.run.fallbacks", fallbacks);
    run.setAttribute("argus.trace.dropped_spans", dropped);
    if (RunEvent.ERROR.equals(last.type())) {
      run.setStatus(StatusCode.ERROR, String.valueOf(last.data().getString("error")));
    } else if (RunEvent.FINAL.equals(last.type())) {
      JsonObject f = last.data();
      run.setAttribute("argus.run.kind", String.valueOf(f.getString("kind")));
      run.setAttribute("argus.run.cached", f.getBoolean("cached", false));
      if (f.getValue("confidence") instanceof Number c) {
        run.setAttribute("argus.run.confidence", c.doubleValue());
      }
    }
    run.end(Math.max(last.createdAtMs(), first.createdAtMs()), TimeUnit.MILLISECONDS);
    return run;
  }

  private void endPhase(Context runCtx, PhaseSpan p, RunEvent end) {
    JsonObject d = end.data();
    long endMs = Math.max(end.createdAtMs(), p.startMs);
    Span span = start(tracer.spanBuilder("phase " + p.name).setParent(runCtx), p.startMs);
    if (span == null) {
      return;
    }
    span.setAttribute("argus.phase", p.name).setAttribute("argus.phase.loop", p.loop)
        .setAttribute("argus.phase.path", String.valueOf(d.getString("path", "none")));
    if (!d.getBoolean("ok", true)) {
      span.setStatus(StatusCode.ERROR, "phase failed");
    }
    Context phaseCtx = runCtx.with(span);
    if ("llm".equals(d.getString("path"))) {
      Span llm = start(tracer.spanBuilder("llm " + p.name).setParent(phaseCtx).setSpanKind(SpanKind.CLIENT),
          p.startMs);
      if (llm != null) {
        llm.setAttribute("gen_ai.usage.input_tokens", d.getLong("promptTokens", 0L))
            .setAttribute("gen_ai.usage.output_tokens", d.getLong("completionTokens", 0L))
            .setAttribute("argus.timing", "phase");
        llm.end(endMs, TimeUnit.MILLISECONDS);
      }
    }
    for (ToolCall call : p.tools) {
      toolSpan(phaseCtx, call, p.startMs);
    }
    span.end(endMs, TimeUnit.MILLISECONDS);
  }

  private void toolSpan(Context parent, ToolCall call, long phaseStartMs) {
    JsonObject r = call.result.data();
    long startMs = call.call == null ? phaseStartMs : call.call.createdAtMs();
    long durationMs = r.getLong("durationMs", Math.max(0, call.result.createdAtMs() - startMs));
    String tool = String.valueOf(r.getString("tool"));
    Span span = start(tracer.spanBuilder("tool " + tool).setParent(parent).setSpanKind(SpanKind.CLIENT), startMs);
    if (span == null) {
      return;
    }
    span.setAttribute("argus.tool", tool).setAttribute("argus.tool.index", r.getInteger("index", -1))
        .setAttribute("argus.tool.attempts", r.getInteger("attempts", 0))
        .setAttribute("argus.tool.success", r.getBoolean("success", false));
    if (!r.getBoolean("success", false)) {
      span.setStatus(StatusCode.ERROR, String.valueOf(r.getString("error")));
    }
    JsonObject timings = r.getJsonObject("timings");
    if (timings != null) {
      // the legs run concurrently after the query embedding (the vector leg) or at once (keyword, trigram)
      double embed = timings.getDouble("selfQueryMs", 0.0) + timings.getDouble("embedMs", 0.0);
      storeSpan(parent.with(span), "vector", startMs + embed, timings.getDouble("vectorMs", 0.0));
      storeSpan(parent.with(span), "keyword", startMs + timings.getDouble("selfQueryMs", 0.0),
          timings.getDouble("keywordMs", 0.0));
      storeSpan(parent.with(span), "trigram", startMs + timings.getDouble("selfQueryMs", 0.0),
          timings.getDouble("trigramMs", 0.0));
    }
    span.end(startMs + durationMs, TimeUnit.MILLISECONDS);
  }

  private void storeSpan(Context parent, String leg, double startMs, double ms) {
    if (ms <= 0) {
      return;
    }
    long startNs = (long) (startMs * 1_000_000);
    Span span = start(tracer.spanBuilder("store " + leg).setParent(parent).setSpanKind(SpanKind.CLIENT)
        .setStartTimestamp(startNs, TimeUnit.NANOSECONDS), -1);
    if (span != null) {
      span.setAttribute("db.operation.name", leg + "_search").setAttribute("argus.search.leg", leg);
      span.end(startNs + (long) (ms * 1_000_000), TimeUnit.NANOSECONDS);
    }
  }

  /** Starts a span unless the run has its maximum ({@code startMs < 0}: the builder has its start). */
  private Span start(SpanBuilder builder, long startMs) {
    if (spans >= maxSpans) {
      dropped++;
      return null;
    }
    spans++;
    if (startMs >= 0) {
      builder.setStartTimestamp(startMs, TimeUnit.MILLISECONDS);
    }
    return builder.setAllAttributes(Attributes.empty()).startSpan();
  }

  private static final class PhaseSpan {
    final String name;
    final long startMs;
    final int loop;
    final List<ToolCall> tools = new ArrayList<>();

    PhaseSpan(String name, long startMs, int loop) {
      this.name = name;
      this.startMs = startMs;
      this.loop = loop;
    }
  }

  private record ToolCall(RunEvent call, RunEvent result) {
  }
}
