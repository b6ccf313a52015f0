package dev.argus.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.metrics.MetricsOptions;
import io.vertx.core.spi.VertxMetricsFactory;
import io.vertx.core.spi.metrics.VertxMetrics;
import io.vertx.ext.web.Router;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.micrometer.PrometheusScrapingHandler;
import io.vertx.micrometer.backends.BackendRegistries;

import java.util.logging.Logger;

/**
 * Process metrics in the Prometheus format: Vert.x's own (HTTP server and client, event bus, pools) and the
 * JVM's, collected by vertx-micrometer-metrics into a Prometheus registry and served at {@code GET /metrics}.
 *
 * <p>Every label takes its values from a bounded set: the HTTP {@code method} only from {@link KnownMethods}
 * (requests with other method names are not recorded, see {@link BoundedHttpServerMetrics}), the {@code route} is
 * the matched route template ({@code /api/documents/:id}, never the raw path: the path label stays disabled), the
 * {@code code} a status code; event-bus metrics carry no address label.
 */
public final class Metrics {

  /**
   * vertx-micrometer-metrics registers the event-bus handler gauge once per consumer with the same id and shares one
   * counter between them, so the count is right, but Micrometer warns about the second registration at every start.
   * This filter drops exactly that warning (the logger is kept here so that it is not collected with its filter).
   */
  private static final Logger METER_REGISTRY_LOG = Logger.getLogger("io.micrometer.core.instrument.MeterRegistry");

  static {
    METER_REGISTRY_LOG.setFilter(record -> record.getMessage() == null
        || !(record.getMessage().contains("already registered") && record.getMessage().contains("vertx.eventbus.handlers")));
  }

  private Metrics() {
  }

  /** A Vert.x instance that records metrics into a new Prometheus registry. */
  public static Vertx vertxWithMetrics(VertxOptions options) {
    return vertxWithMetrics(options, null);
  }

  /**
   * A Vert.x instance that records metrics into a new Prometheus registry and, when {@code tracer} is given, traces
   * its HTTP server requests and event-bus messages with it (e.g. vertx-opentelemetry's factory).
   */
  public static Vertx vertxWithMetrics(VertxOptions options, io.vertx.core.spi.VertxTracerFactory tracer) {
    return builderWithMetrics(options, tracer).build();
  }

  /** The builder of {@link #vertxWithMetrics}, e.g. to add a cluster manager and build a clustered instance. */
  public static io.vertx.core.VertxBuilder builderWithMetrics(VertxOptions options,
                                                             io.vertx.core.spi.VertxTracerFactory tracer) {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    options.setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true).setJvmMetricsEnabled(true)
        .addLabels(Label.HTTP_ROUTE));
    var builder = Vertx.builder().with(options).withMetrics(bounded(new MicrometerMetricsFactory(registry)));
    if (tracer != null) {
      builder.withTracer(tracer);
    }
    return builder;
  }

  /** Wraps a metrics factory so that its HTTP server metrics only record {@link KnownMethods}. */
  static VertxMetricsFactory bounded(VertxMetricsFactory factory) {
    return new VertxMetricsFactory() {
      @Override
      public VertxMetrics metrics(VertxOptions options) {
        return new BoundedVertxMetrics(factory.metrics(options));
      }

      @Override
      public MetricsOptions newOptions() {
        return factory.newOptions();
      }

      @Override
      public MetricsOptions newOptions(MetricsOptions options) {
        return factory.newOptions(options);
      }

      @Override
      public MetricsOptions newOptions(JsonObject json) {
        return factory.newOptions(json);
      }
    };
  }

  /** Mounts {@code GET /metrics} when this Vert.x instance records metrics into a Prometheus registry. */
  public static void mount(Vertx vertx, Router router) {
    if (!vertx.isMetricsEnabled()) {
      return;
    }
    MeterRegistry registry = BackendRegistries.getDefaultNow();
    if (registry instanceof PrometheusMeterRegistry prometheus) {
      router.get("/metrics").handler(PrometheusScrapingHandler.create(prometheus));
    }
  }

  /** Counters of processes without a Prometheus registry (metrics off, tests): counted, never scraped. */
  private static final MeterRegistry UNSCRAPED = new SimpleMeterRegistry();

  /**
   * A counter in the Prometheus registry when this Vert.x instance records metrics (scraped at {@code /metrics}),
   * else in an in-process registry. {@code tags}: name, value, name, value...
   */
  public static Counter counter(Vertx vertx, String name, String help, String... tags) {
    MeterRegistry registry = vertx.isMetricsEnabled() ? BackendRegistries.getDefaultNow() : null;
    return Counter.builder(name).description(help).tags(tags).register(registry == null ? UNSCRAPED : registry);
  }
}
