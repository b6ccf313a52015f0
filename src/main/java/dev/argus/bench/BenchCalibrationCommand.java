package dev.argus.bench;

import dev.argus.bus.Addresses;
import dev.argus.config.ArgusConfig;
import dev.argus.config.ConfigLoader;
import dev.argus.feedback.FeedbackRoutes;
import dev.argus.feedback.FeedbackStores;
import dev.argus.feedback.FeedbackVerticle;
import dev.argus.feedback.calibration.Outcome;
import dev.argus.feedback.calibration.Reliability;
import dev.argus.http.Bus;
import dev.argus.http.HttpVerticle;
import dev.argus.records.world.WorldGenerator;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code argus bench-calibration} (hidden; run through {@code scripts/bench-calibration}): the calibration curve on a
 * synthetic world. Generates a world ({@link WorldGenerator}), and makes one
 * onboarding decision per seller with a <b>simulated decider</b> (the decision service is not used: a known miscalibration is the point): a
 * deterministic, deliberately over-confident source. Only the feedback capability runs (its verticle, the real HTTP
 * server with its routes, a fresh SQLite file), since the decision service would rightly refuse verdicts on decisions
 * it never made. Per seller, from a hash of (seed, seller id): a latent chance
 * {@code q} in [0.30, 0.95] that the decision is right, the decision right with that chance (then it matches the
 * world's ground-truth label, REJECT for fraud and APPROVE otherwise; else the opposite), and a raw confidence
 * {@code sqrt(q)} (over-confident). The decisions are published on {@code argus.decisions.created} as the decision
 * service would; a fixed set of held-out decisions is never labelled. The world's labels of the others are then fed in
 * as feedback over {@code POST /api/feedback}, and at 0, 50, 100, 200 labels (configurable) the held-out decisions'
 * confidences go through {@code argus.calibration.apply}: ECE raw vs calibrated, five buckets. With
 * {@code --decider real} the decisions are the decision engine's own, on the world loaded into the whole service
 * ({@link RealDecider}).
 */
@Command(name = "bench-calibration", hidden = true, mixinStandardHelpOptions = true,
    description = "Benchmark calibration: held-out ECE before and after 50, 100, 200 labels.")
public final class BenchCalibrationCommand implements Callable<Integer> {

  static final String PROFILE = "seller_onboarding";

  @Option(names = "--config", defaultValue = "conf/argus.json", description = "configuration file")
  Path config;

  @Option(names = "--sellers", defaultValue = "2000", description = "sellers in the synthetic world")
  int sellers;

  @Option(names = "--seed", defaultValue = "42", description = "world and decider seed")
  long seed;

  @Option(names = "--held-out", defaultValue = "1000", description = "decisions never labelled, for the ECE")
  int heldOut;

  @Option(names = "--checkpoints", defaultValue = "50,100,200", split = ",", description = "label counts to measure at")
  List<Integer> checkpoints;

  @Option(names = "--decider", defaultValue = "simulated",
      description = "simulated (a known over-confident source) or real (the decision engine on the loaded world)")
  String decider;

  @Option(names = "--concurrency", defaultValue = "4", description = "real decider: decisions in flight")
  int concurrency;

  /** One decision (simulated or real) and its truth. */
  record Sim(String decisionId, String sellerId, boolean fraud, String outcome, double confidence, boolean correct) {
    JsonObject toJson() {
      return new JsonObject().put("decisionId", decisionId).put("runId", "sim-" + sellerId).put("profile", PROFILE)
          .put("subjectId", sellerId).put("outcome", outcome).put("confidence", confidence)
          .put("status", "FINAL").put("createdAt", java.time.Instant.now().toString());
    }
  }

  @Override
  public Integer call() throws Exception {
    if ("real".equals(decider)) {
      return real();
    }
    if (!"simulated".equals(decider)) {
      throw new IllegalArgumentException("--decider must be simulated or real");
    }
    List<Sim> sims = simulate(world());
    int maxLabels = checkpoints.stream().mapToInt(Integer::intValue).max().orElse(0);
    if (sims.size() < heldOut + maxLabels) {
      throw new IllegalArgumentException(sims.size() + " sellers are too few for " + heldOut + " held-out decisions and "
          + maxLabels + " labels");
    }
    List<Sim> held = sims.subList(0, heldOut);
    List<Sim> train = sims.subList(heldOut, heldOut + maxLabels);
    long fraud = sims.stream().filter(Sim::fraud).count();
    double rightShare = sims.stream().filter(Sim::correct).count() / (double) sims.size();
    System.out.printf("world: %d sellers (seed %d), %d fraudulent; simulated decider right on %.1f%%; held out %d, "
        + "labels up to %d [loadavg %s]%n", sims.size(), seed, fraud, 100 * rightShare, heldOut, maxLabels,
        BenchChatCommand.loadavg());

    Path dir = Files.createTempDirectory("argus-bench-calibration-");
    JsonObject raw = ConfigLoader.load(config, System.getenv());
    raw.getJsonObject("data").put("dir", dir.toString());
    raw.getJsonObject("http").put("port", 0).put("host", "127.0.0.1");
    raw.getJsonObject("ingest").put("loadSamples", false);
    raw.getJsonObject("records").put("sampleWorldSellers", 0);
    int step = checkpoints.stream().mapToInt(Integer::intValue).min().orElse(50);
    raw.put("feedback", raw.getJsonObject("feedback", new JsonObject()).put("minLabels", step).put("refitEvery", step)
        .put("maxQueueLimit", 10_000));
    Vertx vertx = Vertx.vertx();
    try {
      // The feedback capability alone behind the real HTTP server and store: with the decision service deployed,
      // a verdict's decision must be one it made, and these are simulated (argus.decisions.get has no handler here,
      // so feedback uses the decisions it indexed from argus.decisions.created).
      ArgusConfig conf = ArgusConfig.from(raw);
      Database db = BenchChatCommand.await(Database.sqlite(vertx, conf.data().sqliteFile()), 120);
      BenchChatCommand.await(vertx.deployVerticle(new FeedbackVerticle(conf.feedback(), FeedbackStores.create(db))), 60);
      HttpVerticle httpVerticle = new HttpVerticle(conf.http(), dir.resolve("uploads"),
          List.of(new FeedbackRoutes(new Bus(vertx, conf.http().sendTimeoutMs()), conf.feedback().maxQueueLimit())));
      BenchChatCommand.await(vertx.deployVerticle(httpVerticle), 60);
      int port = httpVerticle.actualPort();
      HttpClient http = vertx.createHttpClient();
      for (Sim s : sims) {
        vertx.eventBus().publish(Addresses.DECISIONS_CREATED, s.toJson());
      }
      waitIndexed(http, port, sims.size());

      return curve(vertx, http, port, held, train);
    } finally {
      BenchChatCommand.await(vertx.close(), 60);
    }
  }

  /** Labels fed in over HTTP up to each checkpoint, the held-out ECE measured at each; the final calibration report. */
  private int curve(Vertx vertx, HttpClient http, int port, List<Sim> held, List<Sim> train) throws Exception {
    System.out.println("labels | calibrator | held-out ECE raw | held-out ECE calibrated | apply p50/p95 ms");
    measure(vertx, held, 0);
    List<Double> postMs = new ArrayList<>();
    int labelled = 0;
    for (int checkpoint : checkpoints.stream().sorted().toList()) {
      while (labelled < checkpoint) {
        Sim s = train.get(labelled++);
        JsonObject body = new JsonObject().put("decisionId", s.decisionId())
            .put("label", s.correct() ? "correct" : "incorrect")
            .put("reason", s.correct() ? "good_decision" : s.fraud() ? "false_negative" : "false_positive")
            .put("trueOutcome", s.correct() ? s.outcome() : s.fraud() ? "REJECT" : "APPROVE")
            .put("analyst", "world-labels");
        long t0 = System.nanoTime();
        JsonObject reply = send(http, port, HttpMethod.POST, "/api/feedback", body, 201);
        postMs.add((System.nanoTime() - t0) / 1e6);
        if (reply.getJsonObject("calibration") == null) {
          throw new IllegalStateException("no calibration state in " + reply.encode());
        }
      }
      measure(vertx, held, checkpoint);
    }
    System.out.printf("POST /api/feedback: p50 %.1f ms, p95 %.1f ms over %d verdicts (each waits for a due refit)%n",
        ChatLoad.percentile(postMs, 50), ChatLoad.percentile(postMs, 95), postMs.size());
    JsonObject report = send(http, port, HttpMethod.GET, "/api/calibration?profile=" + PROFILE, null, 200);
    System.out.println("GET /api/calibration: " + report.getInteger("labels") + " labels, calibrator version "
        + report.getJsonObject("calibrator").getInteger("version") + ", in-sample ECE raw "
        + fmt(report.getJsonObject("raw").getDouble("ece")) + " -> calibrated "
        + fmt(report.getJsonObject("calibrated").getDouble("ece")));
    System.out.println("[loadavg " + BenchChatCommand.loadavg() + "]");
    return 0;
  }

  /**
   * {@code --decider real}: the whole service in process, the world loaded into it, one real onboarding decision per
   * seller ({@link RealDecider}: a REVIEW is right about a fraudulent seller, wrong about an honest one), shuffled by a
   * hash of seed and seller id, then held out and labelled as in the simulated mode.
   */
  private int real() throws Exception {
    Path dir = Files.createTempDirectory("argus-bench-calibration-real-");
    JsonObject raw = ConfigLoader.load(config, System.getenv());
    raw.getJsonObject("data").put("dir", dir.toString());
    raw.getJsonObject("http").put("port", 0).put("host", "127.0.0.1");
    raw.getJsonObject("ingest").put("loadSamples", false);
    raw.getJsonObject("records").put("sampleWorldSellers", 0);
    int step = checkpoints.stream().mapToInt(Integer::intValue).min().orElse(50);
    raw.put("feedback", raw.getJsonObject("feedback", new JsonObject()).put("minLabels", step).put("refitEvery", step)
        .put("maxQueueLimit", 10_000).put("caseLabels", false));
    Vertx vertx = Vertx.vertx();
    try {
      RealDecider real = new RealDecider(vertx);
      int port = real.start(ArgusConfig.from(raw));
      List<RealDecider.Decided> decided = real.decideAll(real.load(sellers, seed), concurrency);
      java.util.Map<String, Long> outcomes = new java.util.TreeMap<>();
      decided.forEach(d -> outcomes.merge(d.outcome(), 1L, Long::sum));
      List<Sim> sims = new ArrayList<>();
      for (RealDecider.Decided d : decided) {
        if (d.judged()) {
          sims.add(new Sim(d.decisionId(), d.sellerId(), d.fraud(), d.outcome(), d.confidence(), d.correct()));
        }
      }
      sims.sort(java.util.Comparator.comparingDouble(x -> unit(x.sellerId(), "order")));
      int maxLabels = checkpoints.stream().mapToInt(Integer::intValue).max().orElse(0);
      long fraud = sims.stream().filter(Sim::fraud).count();
      double rightShare = sims.stream().filter(Sim::correct).count() / (double) Math.max(1, sims.size());
      System.out.printf("real decider: %d decisions %s; %d judged, %d of them about fraudulent "
          + "sellers, right on %.1f%% [loadavg %s]%n", decided.size(), outcomes, sims.size(), fraud, 100 * rightShare,
          BenchChatCommand.loadavg());
      int held = Math.min(heldOut, sims.size() - maxLabels);
      if (held < 50) {
        throw new IllegalStateException(sims.size() + " judged decisions are too few for " + maxLabels
            + " labels and a held-out set; use more --sellers");
      }
      System.out.println("held out " + held + ", labels up to " + maxLabels);
      return curve(vertx, vertx.createHttpClient(), port, sims.subList(0, held), sims.subList(held, held + maxLabels));
    } finally {
      BenchChatCommand.await(vertx.close(), 120);
    }
  }

  /** Held-out ECE, raw and through {@code argus.calibration.apply}, with the apply latency. */
  private void measure(Vertx vertx, List<Sim> held, int labels) throws Exception {
    List<Outcome> raw = new ArrayList<>();
    List<Outcome> calibrated = new ArrayList<>();
    List<Double> ms = new ArrayList<>();
    int version = 0;
    for (Sim s : held) {
      long t0 = System.nanoTime();
      JsonObject r = BenchChatCommand.await(vertx.eventBus().<JsonObject>request(Addresses.CALIBRATION_APPLY,
          new JsonObject().put("profile", PROFILE).put("confidence", s.confidence()),
          new DeliveryOptions().setSendTimeout(5000)).map(m -> m.body()), 10);
      ms.add((System.nanoTime() - t0) / 1e6);
      version = r.getInteger("version");
      raw.add(new Outcome(s.confidence(), s.correct()));
      calibrated.add(new Outcome(r.getDouble("calibrated"), s.correct()));
    }
    Reliability before = Reliability.of(raw);
    Reliability after = Reliability.of(calibrated);
    System.out.printf("%6d | v%-9d | %16s | %23s | %.2f / %.2f%n", labels, version, fmt(before.ece()),
        fmt(after.ece()), ChatLoad.percentile(ms, 50), ChatLoad.percentile(ms, 95));
    StringBuilder buckets = new StringBuilder("         calibrated buckets (n, conf, acc):");
    for (Reliability.Bucket b : after.buckets()) {
      buckets.append(b.count() == 0 ? " [-]" : String.format(" [%d, %.2f, %.2f]", b.count(), b.meanConfidence(),
          b.accuracy()));
    }
    System.out.println(buckets);
  }

  /** Sellers of a generated world with their ground-truth fraud label, in world order. */
  private List<boolean[]> world() throws Exception {
    Path file = Files.createTempFile("argus-bench-world-", ".jsonl");
    try {
      try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
        WorldGenerator.generate(sellers, seed, out);
      }
      List<boolean[]> out = new ArrayList<>();
      ids.clear();
      try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          if (line.startsWith("{\"kind\":\"seller\"")) {
            JsonObject s = new JsonObject(line);
            ids.add(s.getString("id"));
            out.add(new boolean[] {s.getJsonObject("label", new JsonObject()).getBoolean("fraud", false)});
          }
        }
      }
      return out;
    } finally {
      Files.deleteIfExists(file);
    }
  }

  private final List<String> ids = new ArrayList<>();

  /** The simulated, over-confident decider (see the class comment); order shuffled deterministically by hash. */
  private List<Sim> simulate(List<boolean[]> labels) {
    List<Sim> out = new ArrayList<>();
    for (int i = 0; i < labels.size(); i++) {
      String id = ids.get(i);
      boolean fraud = labels.get(i)[0];
      double q = 0.30 + 0.65 * unit(id, "skill");
      boolean correct = unit(id, "right") < q;
      boolean rejects = correct == fraud;
      out.add(new Sim("D-" + id, id, fraud, rejects ? "REJECT" : "APPROVE", Math.sqrt(q), correct));
    }
    out.sort(java.util.Comparator.comparingDouble(s -> unit(s.sellerId(), "order")));
    return out;
  }

  /** A deterministic uniform number in [0, 1) from the seed, an id and a purpose. */
  private double unit(String id, String purpose) {
    long h = seed * 0x9E3779B97F4A7C15L ^ id.hashCode() * 0xC2B2AE3D27D4EB4FL ^ purpose.hashCode() * 0x165667B19E3779F9L;
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return (h >>> 11) / (double) (1L << 53);
  }

  private static void waitIndexed(HttpClient http, int port, int n) throws Exception {
    long deadline = System.currentTimeMillis() + 120_000;
    while (true) {
      JsonObject q = send(http, port, HttpMethod.GET, "/api/feedback/queue?profile=" + PROFILE + "&limit=" + n, null,
          200);
      int seen = q.getJsonArray("items").size();
      if (seen >= n) {
        return;
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("decisions not indexed: " + seen);
      }
      Thread.sleep(100);
    }
  }

  static JsonObject send(HttpClient http, int port, HttpMethod method, String path, JsonObject body, int status)
      throws Exception {
    Future<JsonObject> f = http.request(new RequestOptions().setMethod(method).setHost("127.0.0.1").setPort(port)
            .setURI(path).putHeader("Content-Type", "application/json"))
        .compose(req -> body == null ? req.send() : req.send(body.toBuffer()))
        .compose(resp -> resp.body().map(b -> {
          if (resp.statusCode() != status) {
            throw new IllegalStateException(method + " " + path + " -> " + resp.statusCode() + " " + b);
          }
          return b.toJsonObject();
        }));
    return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  private static String fmt(Double v) {
    return v == null || v.isNaN() ? "n/a" : String.format("%.4f", v);
  }
}
