package dev.argus.cli;

import dev.argus.app.MainVerticle;
import dev.argus.backtest.BacktestEvent;
import dev.argus.backtest.ReportText;
import dev.argus.bus.Addresses;
import dev.argus.config.ArgusConfig;
import dev.argus.config.ConfigException;
import dev.argus.metrics.Metrics;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code argus backtest --world world.jsonl}: starts Argus in process (the configured store, every capability, HTTP
 * on a free port), runs one backtest over the world file (labels kept out of the store, every labelled subject decided
 * as of its decision time), prints progress and the report, writes the whole report as JSON ({@code --out}), and with
 * {@code --adopt BY} writes the proposed thresholds as a new scoring version. Exits 0 when the backtest completed, 1
 * when it failed, 2 on usage or configuration errors.
 */
@Command(name = "backtest", mixinStandardHelpOptions = true,
    description = "Decide every labelled subject of a world and measure the decisions against the labels.")
public final class BacktestCommand implements Callable<Integer> {

  @Option(names = "--world", required = true, description = "labelled world (JSON Lines), e.g. from generate-world")
  Path world;

  @Option(names = "--config", description = "configuration file (default: ${DEFAULT-VALUE})", defaultValue = "conf/argus.json")
  Path config;

  @Option(names = "--subjects", description = "sellers, transactions or all (default: ${DEFAULT-VALUE})", defaultValue = "sellers")
  String subjects;

  @Option(names = "--decision-time", description = "end or onboarding (default: ${DEFAULT-VALUE})", defaultValue = "end")
  String decisionTime;

  @Option(names = "--as-of", description = "decide every seller as of this ISO-8601 instant")
  String asOf;

  @Option(names = "--sample", description = "decide every planted subject and thin the background to this many in all")
  Integer sample;

  @Option(names = "--concurrency", description = "decisions in flight (default: backtest.concurrency)")
  Integer concurrency;

  @Option(names = "--no-load", description = "the world is already in the store: only read its labels")
  boolean noLoad;

  @Option(names = "--out", description = "write the whole report (JSON) to this file")
  Path out;

  @Option(names = "--adopt", paramLabel = "BY", description = "adopt the proposed thresholds as a new scoring version, "
      + "recorded as adopted by BY")
  String adoptedBy;

  @Option(names = "--version-name", description = "version of the adopted scoring file (default: backtest-<id>)")
  String versionName;

  @Option(names = "--quiet", description = "no progress line")
  boolean quiet;

  @Override
  public Integer call() throws Exception {
    PrintStream err = System.err;
    ArgusConfig conf;
    try {
      conf = ArgusConfig.load(config, System.getenv()).with("http", "port", 0);
    } catch (ConfigException e) {
      err.println("argus backtest: " + e.getMessage());
      return 2;
    }
    if (!Files.isRegularFile(world)) {
      err.println("argus backtest: no such file: " + world);
      return 2;
    }
    JsonObject request = new JsonObject().put("worldFile", world.toAbsolutePath().toString())
        .put("subjects", subjects).put("decisionTime", decisionTime).put("asOf", asOf).put("sample", sample)
        .put("concurrency", concurrency).put("load", !noLoad);
    Vertx vertx = Metrics.vertxWithMetrics(new VertxOptions());
    try {
      try {
        vertx.deployVerticle(new MainVerticle(conf)).toCompletionStage().toCompletableFuture().get(10, TimeUnit.MINUTES);
      } catch (Exception e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        err.println("argus backtest: failed to start: " + cause.getMessage());
        return 1;
      }
      return run(vertx, request);
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(2, TimeUnit.MINUTES);
    }
  }

  private int run(Vertx vertx, JsonObject request) throws Exception {
    PrintStream err = System.err;
    JsonObject started;
    try {
      started = vertx.eventBus().<JsonObject>request(Addresses.BACKTEST_START, request).toCompletionStage()
          .toCompletableFuture().get(1, TimeUnit.MINUTES).body();
    } catch (java.util.concurrent.ExecutionException e) {
      err.println("argus backtest: " + (e.getCause() instanceof ReplyException re ? re.getMessage() : e.getCause()));
      return 2;
    }
    String id = started.getString("backtestId");
    CompletableFuture<JsonObject> done = new CompletableFuture<>();
    MessageConsumer<JsonObject> events = vertx.eventBus().consumer(Addresses.backtestEvents(id), msg -> {
      BacktestEvent ev = BacktestEvent.fromJson(msg.body());
      if (BacktestEvent.DONE.equals(ev.type())) {
        done.complete(ev.data());
      } else if (!quiet) {
        err.print("\r" + progress(ev.data()));
      }
    });
    events.completion().toCompletionStage().toCompletableFuture().get(1, TimeUnit.MINUTES);
    // the job may have ended before the consumer was registered: poll its status as well
    long timer = vertx.setPeriodic(2000, t -> vertx.eventBus().<JsonObject>request(Addresses.BACKTEST_GET,
        new JsonObject().put("backtestId", id), new DeliveryOptions().setSendTimeout(10_000)).onSuccess(m -> {
          String status = m.body().getString("status");
          if ("completed".equals(status) || "failed".equals(status)) {
            done.complete(m.body());
          }
        }));
    JsonObject job = done.get(48, TimeUnit.HOURS);
    vertx.cancelTimer(timer);
    events.unregister();
    if (!quiet) {
      err.println();
    }
    if (!"completed".equals(job.getString("status"))) {
      err.println("argus backtest: the backtest failed: " + job.getString("error"));
      return 1;
    }
    JsonObject report = job.getJsonObject("report");
    JsonObject load = job.getJsonObject("load");
    System.out.printf(Locale.ROOT, "world %s: %d lines, %d transactions, latest record %s; loaded %d created, "
            + "%d updated, %d unchanged, %d refused%n", world, job.getJsonObject("world").getLong("lines"),
        job.getJsonObject("world").getLong("transactions"), job.getJsonObject("world").getString("latest"),
        load.getLong("created"), load.getLong("updated"), load.getLong("unchanged"), load.getLong("refused"));
    System.out.print(ReportText.of(report));
    if (out != null) {
      Files.writeString(out, report.encodePrettily() + "\n", StandardCharsets.UTF_8);
      System.out.println("report written to " + out);
    }
    if (adoptedBy != null) {
      try {
        JsonObject adopted = vertx.eventBus().<JsonObject>request(Addresses.BACKTEST_ADOPT, new JsonObject()
                .put("backtestId", id).put("adoptedBy", adoptedBy).put("version", versionName)).toCompletionStage()
            .toCompletableFuture().get(1, TimeUnit.MINUTES).body();
        System.out.println("adopted: " + adopted.encode());
      } catch (java.util.concurrent.ExecutionException e) {
        err.println("argus backtest: adoption failed: " + e.getCause().getMessage());
        return 1;
      }
    }
    return 0;
  }

  static String progress(JsonObject job) {
    return String.format(Locale.ROOT, "%-9s %d lines read, %d stored, %d refused; %d/%d decided, %d failed, %s/s   ",
        job.getString("phase"), job.getJsonObject("world").getLong("lines"),
        job.getJsonObject("load").getLong("created") + job.getJsonObject("load").getLong("updated")
            + job.getJsonObject("load").getLong("unchanged"), job.getJsonObject("load").getLong("refused"),
        job.getLong("decided"), job.getLong("subjects"), job.getLong("failed"),
        job.getValue("decisionsPerSecond") == null ? "-" : job.getValue("decisionsPerSecond"));
  }
}
