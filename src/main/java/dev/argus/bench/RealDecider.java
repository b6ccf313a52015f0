package dev.argus.bench;

import dev.argus.app.MainVerticle;
import dev.argus.bus.Addresses;
import dev.argus.config.ArgusConfig;
import dev.argus.records.world.WorldGenerator;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The real decider of {@code bench-calibration --decider real}: the whole service in process (MainVerticle: the
 * configured store in a fresh data folder, every capability, HTTP on a free port), a generated world loaded into the
 * records store in chunks over {@code argus.records.load} with its ground-truth labels kept out (the loader drops
 * them; the bench keeps them), and one onboarding decision per seller over {@code argus.decide.onboarding} as of the
 * world's end, {@code concurrency} in flight. A decision is right when it does not approve a fraudulent seller
 * (REJECT, or REVIEW: held for a person, as a completed review labels it) or approves an honest one.
 */
final class RealDecider {

  /** One real decision and its truth. */
  record Decided(String decisionId, String sellerId, boolean fraud, String outcome, double confidence) {
    boolean judged() {
      return "APPROVE".equals(outcome) || "REJECT".equals(outcome) || "REVIEW".equals(outcome);
    }

    /** Right when a fraudulent seller is not approved (rejected or held for a person), or an honest one approved. */
    boolean correct() {
      return "APPROVE".equals(outcome) != fraud;
    }
  }

  private final Vertx vertx;
  private MainVerticle main;

  RealDecider(Vertx vertx) {
    this.vertx = vertx;
  }

  int start(ArgusConfig conf) throws Exception {
    main = new MainVerticle(conf);
    BenchChatCommand.await(vertx.deployVerticle(main), 600);
    return main.httpPort();
  }

  /** Generates and loads the world; returns every seller with its fraud label, in world order. */
  List<String[]> load(int sellers, long seed) throws Exception {
    Path file = Files.createTempFile("argus-bench-world-", ".jsonl");
    List<String[]> out = new ArrayList<>();
    long started = System.nanoTime();
    try {
      try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
        WorldGenerator.generate(sellers, seed, w);
      }
      StringBuilder chunk = new StringBuilder();
      long lines = 0;
      try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          if (line.startsWith("{\"kind\":\"seller\"")) {
            JsonObject s = new JsonObject(line);
            out.add(new String[] {s.getString("id"),
                String.valueOf(s.getJsonObject("label", new JsonObject()).getBoolean("fraud", false))});
          }
          chunk.append(line).append('\n');
          lines++;
          if (chunk.length() > 8 * 1024 * 1024) {
            loadChunk(chunk.toString());
            chunk.setLength(0);
          }
        }
      }
      if (chunk.length() > 0) {
        loadChunk(chunk.toString());
      }
      System.out.printf(Locale.ROOT, "loaded %,d records in %.0f s%n", lines, (System.nanoTime() - started) / 1e9);
      return out;
    } finally {
      Files.deleteIfExists(file);
    }
  }

  private void loadChunk(String text) throws Exception {
    JsonObject job = BenchChatCommand.await(vertx.eventBus().<JsonObject>request(Addresses.RECORDS_LOAD,
        new JsonObject().put("text", text).put("wait", true), new DeliveryOptions().setSendTimeout(3_600_000))
        .map(m -> m.body()), 3600);
    if ("failed".equals(job.getString("status"))) {
      throw new IllegalStateException("loading the world failed: " + job.getString("error"));
    }
  }

  /** Decides every seller, {@code lanes} at a time; a failed decision is reported and skipped. */
  List<Decided> decideAll(List<String[]> sellers, int lanes) throws Exception {
    Decided[] out = new Decided[sellers.size()];
    long started = System.nanoTime();
    Promise<Void> done = Promise.promise();
    int[] next = {0};
    int[] running = {0};
    int[] failed = {0};
    Runnable[] pump = new Runnable[1];
    pump[0] = () -> {
      while (running[0] < lanes && next[0] < sellers.size()) {
        int i = next[0]++;
        running[0]++;
        String[] s = sellers.get(i);
        decide(s[0]).onComplete(ar -> {
          running[0]--;
          if (ar.succeeded()) {
            JsonObject d = ar.result();
            out[i] = new Decided(d.getString("decisionId"), s[0], Boolean.parseBoolean(s[1]), d.getString("outcome"),
                d.getDouble("confidence"));
          } else {
            failed[0]++;
          }
          pump[0].run();
        });
      }
      if (running[0] == 0 && next[0] == sellers.size()) {
        done.tryComplete();
      }
    };
    vertx.runOnContext(v -> pump[0].run());
    BenchChatCommand.await(done.future(), 24 * 3600);
    List<Decided> list = new ArrayList<>();
    for (Decided d : out) {
      if (d != null) {
        list.add(d);
      }
    }
    System.out.printf(Locale.ROOT, "decided %d sellers in %.0f s (%d failed)%n", list.size(),
        (System.nanoTime() - started) / 1e9, failed[0]);
    return list;
  }

  private Future<JsonObject> decide(String sellerId) {
    return vertx.eventBus().<JsonObject>request(Addresses.DECIDE_ONBOARDING, new JsonObject().put("sellerId", sellerId)
            .put("asOf", WorldGenerator.END.toString()), new DeliveryOptions().setSendTimeout(120_000))
        .map(m -> m.body());
  }
}
