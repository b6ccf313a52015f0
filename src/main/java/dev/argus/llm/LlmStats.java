package dev.argus.llm;

import io.vertx.core.json.JsonObject;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Thread-safe counters of one LLM client and of the structured-output helper over it, for {@code /api/health}
 * and metrics. Callers that fall back to their rule-based path because the LLM is unavailable count it with
 * {@link #recordFallback()}.
 */
public final class LlmStats {

  /** Counters nobody reads, for clients that do not track anything. */
  public static final LlmStats UNTRACKED = new LlmStats();

  private final AtomicLong calls = new AtomicLong();
  private final AtomicLong succeeded = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong retries = new AtomicLong();
  private final AtomicLong rejected = new AtomicLong();
  private final AtomicLong promptTokens = new AtomicLong();
  private final AtomicLong completionTokens = new AtomicLong();
  private final AtomicLong attempts = new AtomicLong();
  private final AtomicLong repairs = new AtomicLong();
  private final AtomicLong repairFailures = new AtomicLong();
  private final AtomicLong fallbacks = new AtomicLong();

  /** Hears each call's latency (nanoseconds, succeeded), e.g. a metrics timer; one listener at a time. */
  public interface LatencyListener {
    void took(long nanos, boolean succeeded);
  }

  private volatile LatencyListener latencyListener = (n, ok) -> { };

  /** Sends each call's latency to {@code listener} from now on. */
  public void onLatency(LatencyListener listener) {
    latencyListener = listener;
  }

  void recordLatency(long nanos, boolean succeeded) {
    latencyListener.took(nanos, succeeded);
  }

  void recordCall() {
    calls.incrementAndGet();
  }

  void recordSuccess(Usage usage) {
    succeeded.incrementAndGet();
    promptTokens.addAndGet(usage.promptTokens());
    completionTokens.addAndGet(usage.completionTokens());
  }

  void recordFailure() {
    failed.incrementAndGet();
  }

  void recordRetry() {
    retries.incrementAndGet();
  }

  /** A call refused without reaching the provider (breaker open, queue full). */
  void recordRejected() {
    rejected.incrementAndGet();
  }

  void recordAttempt() {
    attempts.incrementAndGet();
  }

  void recordRepair() {
    repairs.incrementAndGet();
  }

  void recordRepairFailure() {
    repairFailures.incrementAndGet();
  }

  /** A caller used its rule-based path because the LLM was unavailable or its answer was unusable. */
  public void recordFallback() {
    fallbacks.incrementAndGet();
  }

  public long calls() {
    return calls.get();
  }

  public long succeeded() {
    return succeeded.get();
  }

  public long failed() {
    return failed.get();
  }

  public long retries() {
    return retries.get();
  }

  public long rejected() {
    return rejected.get();
  }

  public long promptTokens() {
    return promptTokens.get();
  }

  public long completionTokens() {
    return completionTokens.get();
  }

  /** Structured-output requests started. */
  public long attempts() {
    return attempts.get();
  }

  /** Structured-output repair requests made (at most one per attempt). */
  public long repairs() {
    return repairs.get();
  }

  /** Structured-output answers still invalid after the repair. */
  public long repairFailures() {
    return repairFailures.get();
  }

  public long fallbacks() {
    return fallbacks.get();
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("calls", calls())
        .put("succeeded", succeeded())
        .put("failed", failed())
        .put("retries", retries())
        .put("rejected", rejected())
        .put("promptTokens", promptTokens())
        .put("completionTokens", completionTokens())
        .put("structured", new JsonObject()
            .put("attempts", attempts())
            .put("repairs", repairs())
            .put("repairFailures", repairFailures())
            .put("fallbacks", fallbacks()));
  }
}
