package dev.argus.cli;

import dev.argus.app.MainVerticle;
import dev.argus.cluster.ClusterNode;
import dev.argus.config.ArgusConfig;
import dev.argus.config.ConfigException;
import dev.argus.metrics.Metrics;
import dev.argus.observe.Tracing;
import io.vertx.tracing.opentelemetry.OpenTelemetryTracingFactory;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** {@code argus serve}: starts the service and shuts it down gracefully on Ctrl-C (SIGINT/SIGTERM). */
@Command(name = "serve", mixinStandardHelpOptions = true, description = "Start the Argus service.")
public final class ServeCommand implements Callable<Integer> {

  @Option(names = "--config", description = "configuration file (default: ${DEFAULT-VALUE})", defaultValue = "conf/argus.json")
  Path config;

  @Override
  public Integer call() throws Exception {
    ArgusConfig conf;
    try {
      conf = ArgusConfig.load(config, System.getenv());
    } catch (ConfigException e) {
      System.err.println("argus: configuration error: " + e.getMessage());
      return 2;
    }
    // with an OTLP endpoint, Vert.x traces HTTP requests and bus messages too (vertx-opentelemetry), over the same
    // SDK that exports the runs' traces
    Tracing tracing = conf.observe().otlpEnabled() ? Tracing.create(conf.observe()) : null;
    VertxOptions options = conf.cluster().enabled() ? ClusterNode.clusterOptions(new VertxOptions(), conf.cluster())
        : new VertxOptions();
    Vertx vertx;
    try {
      // cluster mode: joins the other nodes (Hazelcast) before anything is deployed
      vertx = ClusterNode.start(Metrics.builderWithMetrics(options,
              tracing == null ? null : new OpenTelemetryTracingFactory(tracing.openTelemetry())), conf.cluster())
          .toCompletionStage().toCompletableFuture().get(2, TimeUnit.MINUTES);
    } catch (Exception e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      System.err.println("argus: could not join the cluster '" + conf.cluster().name() + "' on " + conf.cluster().host()
          + ":" + conf.cluster().port() + ": " + cause.getMessage());
      return 1;
    }
    MainVerticle main = new MainVerticle(conf, tracing);
    try {
      vertx.deployVerticle(main).toCompletionStage().toCompletableFuture().get(10, TimeUnit.MINUTES);
    } catch (Exception e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      System.err.println("argus: failed to start: " + cause.getMessage());
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      return 1;
    }
    String host = conf.http().host();
    System.out.println("Argus is running at http://" + (host.equals("0.0.0.0") || host.equals("::") ? "localhost" : host)
        + ":" + main.httpPort() + "/  (Ctrl-C to stop)");
    if (!conf.http().loopbackOnly()) {
      System.out.println("argus: warning: bound to " + host + ": other machines can reach Argus; every route needs"
          + " an API key (argus keys create) and requests must name one of http.allowedHosts "
          + conf.http().allowedHosts());
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.out.println("argus: shutting down...");
      try {
        vertx.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
      } catch (Exception e) {
        System.err.println("argus: shutdown did not complete cleanly: " + e.getMessage());
      }
      stopped.countDown();
    }, "argus-shutdown"));
    stopped.await();
    return 0;
  }
}
