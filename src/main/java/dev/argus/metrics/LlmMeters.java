package dev.argus.metrics;

import dev.argus.llm.LlmStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Vertx;

import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * The LLM client's meters, read from its {@link LlmStats} (the same counters {@code /api/health} shows) plus a
 * latency histogram fed by the client: {@code argus.llm.calls{outcome}}, {@code argus.llm.tokens{kind}},
 * {@code argus.llm.retries}, {@code argus.llm.repairs{result}}, {@code argus.llm.fallbacks},
 * {@code argus.llm.latency{outcome}}. {@code provider} is the configured provider (a fixed word).
 */
public final class LlmMeters {

  public static final String CALLS = "argus.llm.calls";
  public static final String TOKENS = "argus.llm.tokens";
  public static final String RETRIES = "argus.llm.retries";
  public static final String REPAIRS = "argus.llm.repairs";
  public static final String FALLBACKS = "argus.llm.fallbacks";
  public static final String LATENCY = "argus.llm.latency";

  private LlmMeters() {
  }

  public static void bind(Vertx vertx, String provider, LlmStats stats) {
    MeterRegistry r = ArgusMeters.registry(vertx);
    Tags p = Tags.of("provider", provider);
    counter(r, CALLS, "LLM calls by outcome", p.and("outcome", "succeeded"), stats, LlmStats::succeeded);
    counter(r, CALLS, "LLM calls by outcome", p.and("outcome", "failed"), stats,
        s -> s.failed() - s.rejected());
    counter(r, CALLS, "LLM calls by outcome", p.and("outcome", "rejected"), stats, LlmStats::rejected);
    counter(r, TOKENS, "LLM tokens", p.and("kind", "prompt"), stats, LlmStats::promptTokens);
    counter(r, TOKENS, "LLM tokens", p.and("kind", "completion"), stats, LlmStats::completionTokens);
    counter(r, RETRIES, "LLM call attempts retried", p, stats, LlmStats::retries);
    counter(r, REPAIRS, "Structured-output repairs", p.and("result", "requested"), stats, LlmStats::repairs);
    counter(r, REPAIRS, "Structured-output repairs", p.and("result", "still_invalid"), stats,
        LlmStats::repairFailures);
    counter(r, FALLBACKS, "Rule-based fallbacks taken because the LLM was unavailable or unusable", p, stats,
        LlmStats::fallbacks);
    Timer ok = ArgusMeters.latency(r, LATENCY, "LLM call latency, retries included", p.and("outcome", "succeeded"));
    Timer failed = ArgusMeters.latency(r, LATENCY, "LLM call latency, retries included", p.and("outcome", "failed"));
    stats.onLatency((nanos, succeeded) -> (succeeded ? ok : failed).record(nanos, TimeUnit.NANOSECONDS));
  }

  private static void counter(MeterRegistry r, String name, String description, Tags tags, LlmStats stats,
                              ToDoubleFunction<LlmStats> value) {
    FunctionCounter.builder(name, stats, value).description(description).tags(tags).register(r);
  }
}
