package dev.argus.observe;

import dev.argus.metrics.BoundedTags;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Meters of what other capabilities publish on the bus, so they work as soon as those capabilities publish:
 * <ul>
 *   <li>{@code argus.decisions{profile, outcome, status}} from {@code argus.decisions.created};</li>
 *   <li>{@code argus.reviews.queue.size} and {@code argus.reviews.queue.age} (seconds the oldest pending decision
 *       has waited): decisions created {@code PENDING_REVIEW} and not yet in an {@code argus.reviews.completed};
 *       {@code argus.reviews.completed{action}};</li>
 *   <li>{@code argus.eval.score{profile, metric}} (distribution of 0..1 scores) from {@code argus.eval.scored};</li>
 *   <li>{@code argus.calibration.error{profile}} (latest) from {@code argus.calibration.updated};</li>
 *   <li>{@code argus.bridge.connections{transport}} (latest open count) from {@code argus.bridge.connections}.</li>
 * </ul>
 * Bounded labels: outcomes, statuses, actions and transports from fixed sets; profiles and metric names at most 32
 * distinct values each. The pending-review map keeps at most {@link #MAX_PENDING} entries (the oldest go first).
 */
final class OutcomeMeters {

  static final String DECISIONS = "argus.decisions";
  static final String QUEUE_SIZE = "argus.reviews.queue.size";
  static final String QUEUE_AGE = "argus.reviews.queue.age";
  static final String REVIEWS = "argus.reviews.completed";
  static final String EVAL_SCORE = "argus.eval.score";
  static final String CALIBRATION_ERROR = "argus.calibration.error";
  static final String BRIDGE_CONNECTIONS = "argus.bridge.connections";
  static final int MAX_PENDING = 100_000;

  private static final Set<String> OUTCOMES = Set.of("approve", "review", "reject", "allow", "block");
  private static final Set<String> STATUSES = Set.of("final", "pending_review");
  private static final Set<String> ACTIONS = Set.of("approve", "reject", "override", "escalate");
  private static final Set<String> TRANSPORTS = Set.of("sockjs", "tcp");

  private final MeterRegistry registry;
  private final LongSupplier clock;
  private final BoundedTags profiles = new BoundedTags(32);
  private final BoundedTags metrics = new BoundedTags(32);
  /** decisionId → createdAt (ms) of decisions waiting for review, oldest first. */
  private final Map<String, Long> pending = java.util.Collections.synchronizedMap(new LinkedHashMap<>());
  private final Map<String, double[]> calibration = new ConcurrentHashMap<>();
  private final Map<String, double[]> bridge = new ConcurrentHashMap<>();

  OutcomeMeters(MeterRegistry registry, LongSupplier clock) {
    this.registry = registry;
    this.clock = clock;
    Gauge.builder(QUEUE_SIZE, pending, Map::size).description("Decisions waiting for review").register(registry);
    Gauge.builder(QUEUE_AGE, this, OutcomeMeters::oldestAgeSeconds)
        .description("Seconds the oldest decision waiting for review has waited").baseUnit("seconds")
        .register(registry);
  }

  void decisionCreated(JsonObject d) {
    String outcome = word(d.getString("outcome"), OUTCOMES);
    String status = word(d.getString("status"), STATUSES);
    registry.counter(DECISIONS, "profile", profiles.of(d.getString("profile")), "outcome", outcome,
        "status", status).increment();
    String id = d.getString("decisionId");
    if ("pending_review".equals(status) && id != null) {
      synchronized (pending) {
        pending.put(id, createdAtMs(d.getValue("createdAt")));
        if (pending.size() > MAX_PENDING) {
          pending.remove(pending.keySet().iterator().next());
        }
      }
    }
  }

  void reviewCompleted(JsonObject r) {
    registry.counter(REVIEWS, "action", word(r.getString("action"), ACTIONS)).increment();
    String id = r.getString("decisionId");
    if (id != null) {
      pending.remove(id);
    }
  }

  void evalScored(JsonObject s) {
    if (!(s.getValue("value") instanceof Number n) || !Double.isFinite(n.doubleValue())) {
      return;
    }
    DistributionSummary.builder(EVAL_SCORE).description("Evaluation scores (0..1) of evaluated runs")
        .tags(Tags.of("profile", profiles.of(s.getString("profile")), "metric", metrics.of(s.getString("metric"))))
        .serviceLevelObjectives(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
        .register(registry).record(n.doubleValue());
  }

  void calibrationUpdated(JsonObject c) {
    if (c.getValue("calibrationError") instanceof Number n) {
      latest(calibration, CALIBRATION_ERROR, "Expected calibration error after the latest refit",
          Tags.of("profile", profiles.of(c.getString("profile"))), profiles.of(c.getString("profile")))[0]
          = n.doubleValue();
    }
  }

  void bridgeConnections(JsonObject b) {
    String transport = word(b.getString("transport"), TRANSPORTS);
    if (b.getValue("open") instanceof Number n) {
      latest(bridge, BRIDGE_CONNECTIONS, "Open event-bus bridge connections", Tags.of("transport", transport),
          transport)[0] = n.doubleValue();
    }
  }

  private double[] latest(Map<String, double[]> values, String name, String description, Tags tags, String key) {
    return values.computeIfAbsent(key, k -> {
      double[] holder = {0};
      Gauge.builder(name, holder, h -> h[0]).description(description).tags(tags).register(registry);
      return holder;
    });
  }

  double oldestAgeSeconds() {
    synchronized (pending) {
      if (pending.isEmpty()) {
        return 0;
      }
      long oldest = pending.values().stream().mapToLong(Long::longValue).min().orElse(clock.getAsLong());
      return Math.max(0, clock.getAsLong() - oldest) / 1000.0;
    }
  }

  private long createdAtMs(Object v) {
    if (v instanceof Number n) {
      return n.longValue();
    }
    if (v instanceof String s) {
      try {
        return Instant.parse(s).toEpochMilli();
      } catch (RuntimeException ignored) {
        // fall through: now
      }
    }
    return clock.getAsLong();
  }

  private static String word(String value, Set<String> allowed) {
    String v = value == null ? "" : value.toLowerCase(Locale.ROOT);
    return allowed.contains(v) ? v : BoundedTags.OTHER;
  }
}
