package dev.argus.metrics;

import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code GET /metrics} serves Prometheus text with Vert.x HTTP server metrics of the requests just made. */
class MetricsTest {

  private Vertx vertx;

  @AfterEach
  void close() throws Exception {
    if (vertx != null) {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void prometheusEndpointReportsHttpRequests() throws Exception {
    vertx = Metrics.vertxWithMetrics(new VertxOptions());
    TestApp app = TestApp.start(vertx, TestApp.config(TestApp.tempDataDir()))
        .toCompletionStage().toCompletableFuture().get(2, TimeUnit.MINUTES);
    WebClient client = WebClient.create(vertx);
    var health = client.get(app.port(), "127.0.0.1", "/api/health").send()
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    assertEquals("ready", health.bodyAsJsonObject().getString("status"));
    var metrics = client.get(app.port(), "127.0.0.1", "/metrics").send()
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    assertEquals(200, metrics.statusCode());
    String text = metrics.bodyAsString();
    assertTrue(text.contains("vertx_http_server_requests_total"), text.substring(0, Math.min(500, text.length())));
    assertTrue(text.lines().anyMatch(l -> l.startsWith("vertx_http_server_requests_total") && l.contains("code=\"200\"")
        && l.contains("method=\"GET\"")), "the health request is counted");
    assertTrue(text.contains("jvm_memory_used_bytes"), "JVM metrics");
  }

  @Test
  void startingLogsNoDuplicateGaugeWarning() throws Exception {
    List<String> warnings = new CopyOnWriteArrayList<>();
    Handler capture = new Handler() {
      @Override
      public void publish(LogRecord record) {
        if (record.getLevel().intValue() >= Level.WARNING.intValue() && record.getMessage() != null) {
          warnings.add(record.getMessage());
        }
      }

      @Override
      public void flush() {
      }

      @Override
      public void close() {
      }
    };
    Logger.getLogger("").addHandler(capture);
    try {
      vertx = Metrics.vertxWithMetrics(new VertxOptions());
      TestApp.start(vertx, TestApp.config(TestApp.tempDataDir())).toCompletionStage().toCompletableFuture()
          .get(2, TimeUnit.MINUTES);
    } finally {
      Logger.getLogger("").removeHandler(capture);
    }
    assertTrue(warnings.stream().noneMatch(w -> w.contains("already registered")), warnings.toString());
  }

  @Test
  void withoutMetricsTheRouteIsAbsent() throws Exception {
    vertx = Vertx.vertx();
    TestApp app = TestApp.start(vertx, TestApp.config(TestApp.tempDataDir()))
        .toCompletionStage().toCompletableFuture().get(2, TimeUnit.MINUTES);
    var metrics = WebClient.create(vertx).get(app.port(), "127.0.0.1", "/metrics").send()
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    assertEquals(404, metrics.statusCode());
  }
}
