package dev.argus.observe;

import dev.argus.agent.SseClient;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OTLP export: with {@code observe.otlpEndpoint} set, a run's spans reach a real HTTP server standing in for an
 * OpenTelemetry collector (OTLP/HTTP, protobuf); by default nothing is exported.
 */
class OtlpExportTest {

  private Vertx vertx;

  @AfterEach
  void close() throws Exception {
    if (vertx != null) {
      await(vertx.close());
    }
  }

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
  }

  private record Received(String path, String contentType, byte[] body) {
  }

  @Test
  void aRunsSpansReachTheCollector() throws Exception {
    vertx = Vertx.vertx();
    List<Received> received = new CopyOnWriteArrayList<>();
    HttpServer collector = await(vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body -> {
      received.add(new Received(req.path(), req.getHeader("Content-Type"), body.getBytes()));
      req.response().putHeader("Content-Type", "application/x-protobuf").end(Buffer.buffer());
    })).listen(0, "127.0.0.1"));
    var conf = TestApp.config(TestApp.tempDataDir())
        .with("observe", "otlpEndpoint", "http://127.0.0.1:" + collector.actualPort() + "/v1/traces")
        .with("observe", "serviceName", "argus-under-test");
    TestApp app = await(TestApp.start(vertx, conf));
    SseClient.Result chat = await(new SseClient(vertx, app.port()).post("/api/chat",
        new JsonObject().put("question", "What is the refund policy?"), null));
    String last = chat.types().get(chat.types().size() - 1);
    assertTrue(last.equals("final") || last.equals("error"), chat.types().toString());
    String runId = chat.events().get(0).data().getString("runId");
    // the batch processor sends within about a second
    String all = "";
    for (int i = 0; i < 100 && !all.contains(runId); i++) {
      Thread.sleep(100);
      StringBuilder sb = new StringBuilder();
      received.forEach(r -> sb.append(new String(r.body(), StandardCharsets.ISO_8859_1)));
      all = sb.toString();
    }
    assertFalse(received.isEmpty(), "nothing reached the collector");
    Received first = received.get(0);
    assertEquals("/v1/traces", first.path());
    assertEquals("application/x-protobuf", first.contentType());
    // protobuf keeps strings as UTF-8 bytes: the run id attribute, span names and the service name are there
    assertTrue(all.contains(runId), "the run's spans were exported");
    assertTrue(all.contains("phase think") && all.contains("argus.run.id"), "span names and attributes");
    assertTrue(all.contains("argus-under-test"), "the service.name resource");
    JsonObject deep = await(WebClient.create(vertx).get(app.port(), "127.0.0.1", "/api/health/deep").send())
        .bodyAsJsonObject();
    assertTrue(deep.getJsonObject("tracing").getBoolean("otlpExport"), deep.encode());
  }

  @Test
  void withVertxTracingHttpRequestsAreExportedToo() throws Exception {
    Vertx collectorVertx = Vertx.vertx();
    try {
      List<byte[]> received = new CopyOnWriteArrayList<>();
      HttpServer collector = await(collectorVertx.createHttpServer().requestHandler(req -> req.body().onSuccess(b -> {
        received.add(b.getBytes());
        req.response().end();
      })).listen(0, "127.0.0.1"));
      var conf = TestApp.config(TestApp.tempDataDir())
          .with("observe", "otlpEndpoint", "http://127.0.0.1:" + collector.actualPort() + "/v1/traces");
      // as ServeCommand does: one SDK for the runs' traces and for Vert.x's own spans (vertx-opentelemetry)
      Tracing tracing = Tracing.create(conf.observe());
      vertx = Vertx.builder().withTracer(new io.vertx.tracing.opentelemetry.OpenTelemetryTracingFactory(
          tracing.openTelemetry())).build();
      dev.argus.app.MainVerticle main = new dev.argus.app.MainVerticle(conf, tracing);
      await(vertx.deployVerticle(main));
      var health = await(WebClient.create(vertx).get(main.httpPort(), "127.0.0.1", "/api/health/live").send());
      assertEquals(200, health.statusCode());
      String all = "";
      for (int i = 0; i < 100 && !all.contains("/api/health/live"); i++) {
        Thread.sleep(100);
        StringBuilder sb = new StringBuilder();
        received.forEach(r -> sb.append(new String(r, StandardCharsets.ISO_8859_1)));
        all = sb.toString();
      }
      assertTrue(all.contains("/api/health/live"), "the HTTP server span of the request was exported");
    } finally {
      await(collectorVertx.close());
    }
  }

  @Test
  void exportIsOffByDefault() throws Exception {
    vertx = Vertx.vertx();
    TestApp app = await(TestApp.start(vertx, TestApp.config(TestApp.tempDataDir())));
    assertEquals("", TestApp.config(TestApp.tempDataDir()).observe().otlpEndpoint());
    JsonObject deep = await(WebClient.create(vertx).get(app.port(), "127.0.0.1", "/api/health/deep").send())
        .bodyAsJsonObject();
    assertFalse(deep.getJsonObject("tracing").getBoolean("otlpExport"), deep.encode());
    assertTrue(deep.getJsonObject("tracing").getBoolean("enabled"), deep.encode());
  }
}
