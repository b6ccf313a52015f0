package dev.argus.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.ext.web.Router;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.micrometer.PrometheusScrapingHandler;
import io.vertx.micrometer.backends.BackendRegistries;

/**
 * Process metrics in the Prometheus format: Vert.x's own (HTTP server and client, event bus, pools) and the
 * JVM's, collected by vertx-micrometer-metrics into a Prometheus registry and served at {@code GET /metrics}.
 */
public final class Metrics {

  private Metrics() {
  }

  /** A Vert.x instance that records metrics into a new Prometheus registry. */
  public static Vertx vertxWithMetrics(VertxOptions options) {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    options.setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true).setJvmMetricsEnabled(true));
    return Vertx.builder().with(options).withMetrics(new MicrometerMetricsFactory(registry)).build();
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
}
