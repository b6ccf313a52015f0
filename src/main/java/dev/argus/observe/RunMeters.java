package dev.argus.observe;

import dev.argus.metrics.ArgusMeters;
import dev.argus.metrics.BoundedTags;
import dev.argus.runs.RunEvent;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.vertx.core.json.JsonObject;

import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The agent's meters, read from the run events as they are published:
 * <ul>
 *   <li>{@code argus.runs{profile, status}} — runs ended, {@code status} completed|failed; {@code argus.runs.active};
 *       {@code argus.run.duration{profile, status}} (histogram);</li>
 *   <li>{@code argus.phase.duration{phase, path, outcome}} (histogram), {@code path} llm|rules|none;</li>
 *   <li>{@code argus.tool.calls{tool, outcome}} (success|error), {@code argus.tool.latency{tool}} (histogram);</li>
 *   <li>{@code argus.agent.fallbacks{phase}} — rule-based fallbacks announced by a phase.</li>
 * </ul>
 * Labels are bounded: phases and paths are fixed words, profiles and tools come from configuration (at most 32 and
 * 128 distinct values, then {@code other}). Used from the observe verticle's context only.
 */
final class RunMeters {

  static final String RUNS = "argus.runs";
  static final String RUNS_ACTIVE = "argus.runs.active";
  static final String RUN_DURATION = "argus.run.duration";
  static final String PHASE_DURATION = "argus.phase.duration";
  static final String TOOL_CALLS = "argus.tool.calls";
  static final String TOOL_LATENCY = "argus.tool.latency";
  static final String FALLBACKS = "argus.agent.fallbacks";

  private static final Set<String> PHASES = Set.of("think", "plan", "act", "observe", "reflect");
  private static final Set<String> PATHS = Set.of("llm", "rules");

  private final MeterRegistry registry;
  private final BoundedTags profiles = new BoundedTags(32);
  private final BoundedTags tools = new BoundedTags(128);
  private final AtomicInteger active = new AtomicInteger();
  /** Per phase (the agents): ok, failed, fallbacks, llm, rules. */
  private final java.util.Map<String, long[]> phaseCounts = new java.util.TreeMap<>();
  /** Per tool: success, error; and its last error. */
  private final java.util.Map<String, long[]> toolCounts = new java.util.TreeMap<>();
  private final java.util.Map<String, String> toolErrors = new java.util.HashMap<>();

  RunMeters(MeterRegistry registry) {
    this.registry = registry;
    Gauge.builder(RUNS_ACTIVE, active, AtomicInteger::get).description("Runs started and not yet ended")
        .register(registry);
  }

  /** {@code profile}: the run's profile as its {@code run} event named it ({@code null} when not seen). */
  void onEvent(RunEvent e, String profile, long startedAtMs) {
    JsonObject d = e.data();
    switch (e.type()) {
      case RunEvent.RUN -> active.incrementAndGet();
      case RunEvent.PHASE -> {
        if ("end".equals(d.getString("status"))) {
          String phase = known(PHASES, d.getString("name"), BoundedTags.OTHER);
          String path = known(PATHS, d.getString("path"), "none");
          ArgusMeters.latency(registry, PHASE_DURATION, "Phase duration as the coordinator saw it",
                  Tags.of("phase", phase, "path", path, "outcome", d.getBoolean("ok", true) ? "ok" : "failed"))
              .record(d.getLong("durationMs", 0L), TimeUnit.MILLISECONDS);
          long[] c = phaseCounts.computeIfAbsent(phase, k -> new long[5]);
          c[d.getBoolean("ok", true) ? 0 : 1]++;
          if (!"none".equals(path)) {
            c["llm".equals(path) ? 3 : 4]++;
          }
        }
      }
      case RunEvent.TOOL_RESULT -> {
        String tool = tools.of(d.getString("tool"));
        registry.counter(TOOL_CALLS, "tool", tool, "outcome", d.getBoolean("success", false) ? "success" : "error")
            .increment();
        ArgusMeters.latency(registry, TOOL_LATENCY, "Tool call latency, retries included", Tags.of("tool", tool))
            .record(d.getLong("durationMs", 0L), TimeUnit.MILLISECONDS);
        toolCounts.computeIfAbsent(tool, k -> new long[2])[d.getBoolean("success", false) ? 0 : 1]++;
        if (!d.getBoolean("success", false)) {
          String err = String.valueOf(d.getString("error"));
          toolErrors.put(tool, err.length() > 200 ? err.substring(0, 200) : err);
        }
      }
      case RunEvent.AGENT_LOG -> {
        if (d.getBoolean("fallback", false)) {
          String phase = known(PHASES, d.getString("phase"), BoundedTags.OTHER);
          registry.counter(FALLBACKS, "phase", phase).increment();
          phaseCounts.computeIfAbsent(phase, k -> new long[5])[2]++;
        }
      }
      case RunEvent.FINAL, RunEvent.ERROR -> {
        String status = RunEvent.FINAL.equals(e.type()) ? "completed" : "failed";
        String p = profiles.of(profile);
        registry.counter(RUNS, "profile", p, "status", status).increment();
        if (startedAtMs > 0) {
          ArgusMeters.latency(registry, RUN_DURATION, "Run duration, start to final or error",
                  Tags.of("profile", p, "status", status))
              .record(Math.max(0, e.createdAtMs() - startedAtMs), TimeUnit.MILLISECONDS);
        }
        if (profile != null) {
          active.updateAndGet(n -> Math.max(0, n - 1));
        }
      }
      default -> {
      }
    }
  }

  /** Per-agent (phase) and per-tool health since start: {@code {agents: [...], tools: [...], activeRuns}}. */
  io.vertx.core.json.JsonObject health() {
    io.vertx.core.json.JsonArray agents = new io.vertx.core.json.JsonArray();
    for (String phase : java.util.List.of("think", "plan", "act", "observe", "reflect")) {
      long[] c = phaseCounts.getOrDefault(phase, new long[5]);
      agents.add(new JsonObject().put("phase", phase).put("ok", c[0]).put("failed", c[1]).put("fallbacks", c[2])
          .put("llm", c[3]).put("rules", c[4]));
    }
    io.vertx.core.json.JsonArray toolsOut = new io.vertx.core.json.JsonArray();
    toolCounts.forEach((tool, c) -> toolsOut.add(new JsonObject().put("tool", tool).put("success", c[0])
        .put("error", c[1]).put("lastError", toolErrors.get(tool))));
    return new JsonObject().put("agents", agents).put("tools", toolsOut).put("activeRuns", active.get());
  }

  /**
   * {@code value} when it is one of {@code words}, else {@code otherwise}; {@code null} included (a phase that timed
   * out ends without a {@code path}, and {@code Set.of(..).contains(null)} throws).
   */
  private static String known(Set<String> words, String value, String otherwise) {
    return value != null && words.contains(value) ? value : otherwise;
  }
}
