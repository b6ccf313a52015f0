package dev.argus.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.vertx.circuitbreaker.CircuitBreaker;
import io.vertx.core.Vertx;
import io.vertx.micrometer.backends.BackendRegistries;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Argus's own meters, next to Vert.x's: one place that names them and keeps their labels bounded. Every meter is
 * registered in the registry of the Vert.x instance (the Prometheus registry behind {@code GET /metrics}); when
 * metrics are off, in a registry that records nothing.
 *
 * <p>Names are Micrometer's dotted names; Prometheus shows them with underscores and a unit suffix
 * ({@code argus.search.leg} → {@code argus_search_leg_seconds}). Label values come from bounded sets only: fixed
 * words, or {@link BoundedTags} for names that configuration defines (profiles, tools).
 */
public final class ArgusMeters {

  /** Search latency per leg: {@code leg} ∈ {@link #SEARCH_LEGS}; a histogram (Prometheus buckets). */
  public static final String SEARCH_LEG = "argus.search.leg";
  /** Searches answered, {@code cached} true|false. */
  public static final String SEARCHES = "argus.searches";
  public static final String INGEST_DOCUMENTS = "argus.ingest.documents";
  public static final String INGEST_CHUNKS = "argus.ingest.chunks";
  /** Breaker state per breaker: 0 closed, 0.5 half-open, 1 open. */
  public static final String BREAKER_STATE = "argus.breaker.state";

  /** The search stages measured, in the order of {@code Timings}. */
  public static final java.util.List<String> SEARCH_LEGS =
      java.util.List.of("self_query", "embed", "vector", "keyword", "trigram", "fusion", "expand", "total");

  /** Bucket bounds for latency histograms: 1 ms to 30 s. */
  static final Duration MIN_LATENCY = Duration.ofMillis(1);
  static final Duration MAX_LATENCY = Duration.ofSeconds(30);

  private static final MeterRegistry NONE = new CompositeMeterRegistry();

  private static final BoundedTags BREAKERS = new BoundedTags(64);

  private ArgusMeters() {
  }

  /** The registry of this Vert.x instance's metrics, or one that records nothing when metrics are off. */
  public static MeterRegistry registry(Vertx vertx) {
    if (vertx == null || !vertx.isMetricsEnabled()) {
      return NONE;
    }
    MeterRegistry r = BackendRegistries.getDefaultNow();
    return r == null ? NONE : r;
  }

  /** A latency histogram with buckets from 1 ms to 30 s. */
  public static Timer latency(MeterRegistry registry, String name, String description, Tags tags) {
    return Timer.builder(name).description(description).tags(tags).publishPercentileHistogram()
        .minimumExpectedValue(MIN_LATENCY).maximumExpectedValue(MAX_LATENCY).register(registry);
  }

  /**
   * Records one search's stage times (milliseconds per leg in {@link #SEARCH_LEGS}; a leg that did not run, 0, is
   * not recorded). A cached answer counts only as a search.
   */
  public static void search(Vertx vertx, Map<String, Double> legMs, boolean cached) {
    MeterRegistry r = registry(vertx);
    r.counter(SEARCHES, "cached", Boolean.toString(cached)).increment();
    if (cached) {
      return;
    }
    legMs.forEach((leg, ms) -> {
      if (SEARCH_LEGS.contains(leg) && ms != null && ms > 0) {
        latency(r, SEARCH_LEG, "Search latency per retrieval stage", Tags.of("leg", leg))
            .record((long) (ms * 1_000_000), TimeUnit.NANOSECONDS);
      }
    });
  }

  /** Counts one ingested document ({@code outcome}: stored, unchanged, failed) and its chunks. */
  public static void ingested(Vertx vertx, String outcome, int chunks) {
    MeterRegistry r = registry(vertx);
    r.counter(INGEST_DOCUMENTS, "outcome", outcome).increment();
    if (chunks > 0) {
      r.counter(INGEST_CHUNKS).increment(chunks);
    }
  }

  /**
   * A gauge of {@code breaker}'s state under {@code name} ({@code tool:knowledge_search},
   * {@code decision-tool:seller_profile}); one name per breaker: a second gauge under a taken name is ignored.
   */
  public static void breaker(Vertx vertx, String name, CircuitBreaker breaker) {
    io.micrometer.core.instrument.Gauge.builder(BREAKER_STATE, breaker, ArgusMeters::stateValue)
        .description("Circuit breaker state: 0 closed, 0.5 half-open, 1 open")
        .tag("breaker", BREAKERS.of(name)).register(registry(vertx));
  }

  static double stateValue(CircuitBreaker b) {
    return switch (b.state()) {
      case CLOSED -> 0;
      case HALF_OPEN -> 0.5;
      case OPEN -> 1;
    };
  }
}
