package dev.argus.testing;

import dev.argus.config.ArgusConfig;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The whole service with the bundled sample knowledge base loaded, as at a user's first start: {@link #start}
 * deploys a {@link TestApp} with {@code ingest.loadSamples} on and waits (polling {@code GET /api/documents}) until
 * every file listed in {@code samples/index.txt} is stored.
 */
public final class SampleKnowledge {

  private SampleKnowledge() {
  }

  /** The number of sample documents ({@code samples/index.txt} lines). */
  public static int count() {
    try (InputStream in = SampleKnowledge.class.getClassLoader().getResourceAsStream("samples/index.txt")) {
      if (in == null) {
        throw new IllegalStateException("samples/index.txt is not on the classpath");
      }
      return (int) new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).count();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The test configuration of {@code dataDir} with the samples loaded at start. */
  public static ArgusConfig config(Path dataDir) {
    return TestApp.config(dataDir).with("ingest", "loadSamples", true);
  }

  /** Starts the service with {@code conf} (which loads the samples) and completes once all samples are stored. */
  public static Future<TestApp> start(Vertx vertx, ArgusConfig conf) {
    int expected = count();
    return TestApp.start(vertx, conf).compose(app -> {
      WebClient client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1")
          .setDefaultPort(app.port()));
      return awaitDocuments(vertx, client, expected, 1200).eventually(() -> {
        client.close();
        return Future.succeededFuture();
      }).map(app);
    });
  }

  private static Future<Void> awaitDocuments(Vertx vertx, WebClient client, long expected, int attemptsLeft) {
    return client.get("/api/documents?limit=1").send().map(HttpResponse::bodyAsJsonObject).compose(page -> {
      long total = page == null ? 0 : page.getLong("total", 0L);
      if (total >= expected) {
        return Future.succeededFuture();
      }
      if (attemptsLeft == 0) {
        return Future.failedFuture(new AssertionError("sample knowledge base not loaded: " + total + " of "
            + expected + " documents"));
      }
      Promise<Void> later = Promise.promise();
      vertx.setTimer(100, id -> later.complete());
      return later.future().compose(v -> awaitDocuments(vertx, client, expected, attemptsLeft - 1));
    });
  }
}
