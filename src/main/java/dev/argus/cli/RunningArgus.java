package dev.argus.cli;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;

import java.net.URI;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP client of the commands that drive a running Argus ({@code eval-agent}, {@code adversarial}). Its calls
 * block the command's own (main) thread, never an event loop: the commands wait for one answer at a time.
 */
final class RunningArgus {

  private RunningArgus() {
  }

  /** A client whose default host, port and TLS come from {@code url} (e.g. {@code http://127.0.0.1:8080}). */
  static WebClient client(Vertx vertx, String url) {
    URI base = URI.create(url);
    return WebClient.create(vertx, new WebClientOptions().setDefaultHost(base.getHost())
        .setDefaultPort(base.getPort() > 0 ? base.getPort() : 80).setSsl("https".equals(base.getScheme())));
  }

  /** The JSON body of {@code r}, or a failure naming {@code what} when its status is not {@code expected}. */
  static JsonObject check(HttpResponse<Buffer> r, int expected, String what) {
    if (r.statusCode() != expected) {
      throw new IllegalStateException(what + ": HTTP " + r.statusCode() + " " + r.bodyAsString());
    }
    return r.bodyAsJsonObject();
  }

  /** Waits up to 60 s for one request's answer. */
  static <T> T await(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("request failed: " + e.getMessage());
    }
  }
}
