package dev.argus.backtest;

import dev.argus.bus.Addresses;
import dev.argus.bus.BusFailures;
import dev.argus.common.ApiException;
import dev.argus.config.BacktestConf;
import dev.argus.records.world.WorldGenerator;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Runs one backtest on the owning verticle's context: reads the world a chunk at a time on a worker (labels out, into
 * the {@link WorldIndex}), loads each chunk into the records store over {@code argus.records.load} (which also feeds
 * the graph) and waits for it, selects the labelled subjects ({@link Subjects}), decides them over
 * {@code argus.decide.onboarding} / {@code argus.decide.transaction} with their {@code asOf}, {@code concurrency} in
 * flight, timing each request-reply, and builds the report on a worker. The decision path never sees a label.
 */
final class BacktestRunner {

  static final int CHUNK_LINES = 20_000;
  static final int CHUNK_CHARS = 16 * 1024 * 1024;
  static final long LOAD_TIMEOUT_MS = 60 * 60 * 1000L;
  static final long PROGRESS_EVERY_NANOS = 250_000_000L;

  private final Vertx vertx;
  private final BacktestConf conf;
  private final BacktestJob job;
  private final BacktestRequest req;
  private final Consumer<BacktestJob> progress;
  private final BooleanSupplier stopping;
  private long lastProgress;

  BacktestRunner(Vertx vertx, BacktestConf conf, BacktestJob job, BacktestRequest req, Consumer<BacktestJob> progress,
                 BooleanSupplier stopping) {
    this.vertx = vertx;
    this.conf = conf;
    this.job = job;
    this.req = req;
    this.progress = progress;
    this.stopping = stopping;
  }

  /** Runs the backtest; completes with the report, or fails with the reason. */
  Future<JsonObject> run() {
    job.phase("reading");
    progress.accept(job);
    return open().compose(world -> readAll(world).eventually(() -> vertx.executeBlocking(() -> {
      world.close();
      return null;
    }))).compose(index -> {
      List<LabelledSubject> subjects = Subjects.select(index, req);
      if (subjects.isEmpty()) {
        throw ApiException.badRequest("no_labelled_subjects", "the world has no labelled "
            + (req.sellers() ? "sellers" : "transactions") + " to decide (records need a 'label')");
      }
      if (subjects.size() > conf.maxSubjects()) {
        throw ApiException.badRequest("too_many_subjects", "the backtest would decide " + subjects.size()
            + " subjects, more than backtest.maxSubjects (" + conf.maxSubjects() + "); use 'sample'");
      }
      job.subjects = subjects.size();
      job.phase("deciding");
      progress.accept(job);
      return decideAll(subjects);
    }).compose(verdicts -> {
      job.verdicts = List.copyOf(verdicts);
      job.phase("reporting");
      progress.accept(job);
      long nanos = System.nanoTime() - job.decideStartedNanos;
      CostModel costs = CostModel.of(conf);
      return vertx.executeBlocking(() -> BacktestReport.build(verdicts, costs, nanos)
          .put("world", new JsonObject().put("lines", job.lines).put("transactions", job.transactions)
              .put("latest", job.latest == null ? null : job.latest.toString()))
          .put("request", job.toJson(false).getJsonObject("request")));
    });
  }

  /** The world's reader: the uploaded text, the file, or a world generated into a temporary file. */
  private Future<WorldSource> open() {
    if (req.text() != null) {
      return Future.succeededFuture(new WorldSource(new BufferedReader(new StringReader(req.text())), null));
    }
    return vertx.executeBlocking(() -> {
      Path file;
      Path temp = null;
      if (req.worldFile() != null) {
        file = Path.of(req.worldFile());
        if (!Files.isRegularFile(file)) {
          throw ApiException.badRequest("invalid_world", "no such world file: " + req.worldFile());
        }
      } else {
        temp = Files.createTempFile("argus-backtest-world", ".jsonl");
        file = temp;
        try (Writer w = Files.newBufferedWriter(temp, StandardCharsets.UTF_8)) {
          WorldGenerator.generate(req.generateSellers(), req.generateSeed(), w);
        } catch (IOException | RuntimeException e) {
          Files.deleteIfExists(temp);
          throw e;
        }
      }
      return new WorldSource(Files.newBufferedReader(file, StandardCharsets.UTF_8), temp);
    });
  }

  /** A world being read, and the temporary file to delete afterwards (if generated). */
  private record WorldSource(WorldReader reader, Path temp) {

    WorldSource(BufferedReader in, Path temp) {
      this(new WorldReader(in), temp);
    }

    void close() {
      reader.close();
      if (temp != null) {
        try {
          Files.deleteIfExists(temp);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
  }

  private Future<WorldIndex> readAll(WorldSource world) {
    if (stopping.getAsBoolean()) {
      return Future.failedFuture(ApiException.unavailable("shutting_down", "shutdown: the backtest was stopped"));
    }
    return vertx.executeBlocking(() -> world.reader().next(CHUNK_LINES, CHUNK_CHARS), true).compose(chunk -> {
      WorldIndex index = world.reader().index();
      job.lines = index.lines();
      job.transactions = index.transactions();
      job.latest = index.latest();
      if (chunk.lines() == 0) {
        return Future.succeededFuture(index);
      }
      Future<Void> loaded = req.load() ? load(chunk.text()) : Future.succeededFuture();
      return loaded.compose(v -> {
        progress.accept(job);
        return readAll(world);
      });
    });
  }

  private Future<Void> load(String text) {
    return vertx.eventBus().<JsonObject>request(Addresses.RECORDS_LOAD, new JsonObject().put("text", text)
            .put("wait", true), new DeliveryOptions().setSendTimeout(LOAD_TIMEOUT_MS))
        .recover(err -> Future.failedFuture(new ApiException(BusFailures.toApi(err).status(), "load_failed",
            "loading the world into the records store failed: " + BusFailures.toApi(err).getMessage())))
        .compose(msg -> {
          JsonObject r = msg.body();
          job.created += r.getLong("created", 0L);
          job.updated += r.getLong("updated", 0L);
          job.unchanged += r.getLong("unchanged", 0L);
          job.refused += r.getLong("failed", 0L);
          if ("failed".equals(r.getString("status"))) {
            return Future.failedFuture(new ApiException(500, "load_failed", "loading the world into the records "
                + "store failed: " + r.getString("error")));
          }
          return Future.succeededFuture();
        });
  }

  /** Decides every subject, {@code concurrency} at a time, in order of the list; never fails (errors are verdicts). */
  private Future<List<Verdict>> decideAll(List<LabelledSubject> subjects) {
    Verdict[] out = new Verdict[subjects.size()];
    Promise<List<Verdict>> done = Promise.promise();
    int lanes = Math.min(subjects.size(), req.concurrency() != null ? req.concurrency() : conf.concurrency());
    int[] next = {0};
    int[] running = {0};
    job.decideStartedNanos = System.nanoTime();
    Runnable[] pump = new Runnable[1];
    pump[0] = () -> {
      while (running[0] < lanes && next[0] < subjects.size() && !stopping.getAsBoolean()) {
        int i = next[0]++;
        running[0]++;
        decide(subjects.get(i)).onComplete(ar -> {
          out[i] = ar.result();
          running[0]--;
          if (out[i].failed()) {
            job.failed++;
          } else {
            job.decided++;
          }
          long now = System.nanoTime();
          if (now - lastProgress > PROGRESS_EVERY_NANOS) {
            lastProgress = now;
            progress.accept(job);
          }
          pump[0].run();
        });
      }
      if (running[0] == 0 && (next[0] == subjects.size() || stopping.getAsBoolean())) {
        if (next[0] < subjects.size()) {
          done.tryFail(ApiException.unavailable("shutting_down", "shutdown: the backtest was stopped after "
              + next[0] + " of " + subjects.size() + " decisions"));
        } else {
          List<Verdict> list = new ArrayList<>(out.length);
          java.util.Collections.addAll(list, out);
          done.tryComplete(list);
        }
      }
    };
    pump[0].run();
    return done.future();
  }

  /** One decision over the bus with the subject's {@code asOf}; the verdict, or a failed verdict with the reason. */
  private Future<Verdict> decide(LabelledSubject s) {
    boolean tx = LabelledSubject.TRANSACTION.equals(s.profile());
    // a backtest's decisions are not recorded as runs: nobody resumes their streams, and it halves the writes
    JsonObject body = new JsonObject().put(tx ? "transactionId" : "sellerId", s.id()).put("recordRun", false);
    if (s.asOf() != null) {
      body.put("asOf", s.asOf().toString());
    }
    long started = System.nanoTime();
    return vertx.eventBus().<JsonObject>request(tx ? Addresses.DECIDE_TRANSACTION : Addresses.DECIDE_ONBOARDING, body,
            new DeliveryOptions().setSendTimeout(conf.decisionTimeoutMs()))
        .map(msg -> {
          double ms = (System.nanoTime() - started) / 1e6;
          try {
            return Verdict.of(s, msg.body(), ms);
          } catch (RuntimeException e) {
            return Verdict.failed(s, ms, "unreadable decision: " + e.getMessage());
          }
        })
        .otherwise(err -> {
          ApiException api = BusFailures.toApi(err);
          return Verdict.failed(s, (System.nanoTime() - started) / 1e6, api.status() + " " + api.code() + ": "
              + api.getMessage());
        });
  }
}
