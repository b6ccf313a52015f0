package dev.argus.bench;

import dev.argus.common.Fingerprinter;
import dev.argus.config.ArgusConfig;
import dev.argus.config.PgConf;
import dev.argus.graph.Facts;
import dev.argus.graph.GraphAnalysis;
import dev.argus.graph.GraphQueries;
import dev.argus.graph.GraphStore;
import dev.argus.graph.GraphStores;
import dev.argus.graph.RecordFacts;
import dev.argus.graph.RiskLists;
import dev.argus.records.RecordValidator;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Hidden {@code argus bench-graph}: the graph half of {@code scripts/bench-graph}. Reads a generated world (JSON Lines),
 * validates every line into its stored form and builds the entity graph in batches into a fresh SQLite file or a
 * scratch PostgreSQL database (records/s and sources/s, graph size), then times, around random sellers, the 2-hop
 * neighbourhood (fan-out 50, 500 nodes), {@code investigate} (3 hops, weight >= 0.7) and {@code community}: p50/p95.
 */
@Command(name = "bench-graph", hidden = true, mixinStandardHelpOptions = true,
    description = "Entity graph build throughput and query latency (used by scripts/bench-graph).")
public final class BenchGraphCommand implements java.util.concurrent.Callable<Integer> {

  @Option(names = "--config", defaultValue = "conf/argus.json")
  Path config;
  @Option(names = "--world", required = true)
  Path world;
  @Option(names = "--store", defaultValue = "sqlite")
  String store;
  @Option(names = "--dir", defaultValue = "/tmp/argus-bench-graph")
  Path dir;
  @Option(names = "--batch", defaultValue = "1000")
  int batch;
  @Option(names = "--queries", defaultValue = "200")
  int queries;
  @Option(names = "--sellers", defaultValue = "10000")
  int sellers;
  @Option(names = "--keep", description = "Keep the scratch PostgreSQL database (and print its name).")
  boolean keep;
  @Option(names = "--warmup", defaultValue = "20",
      description = "Sellers (other than the timed ones) run through every query first, untimed: a long-running service is past JIT warm-up.")
  int warmup;
  @Option(names = "--reuse", description = "Query a database kept by --keep (or one loaded by `load-records --graph`) "
      + "instead of building one (kept again); with --store sqlite, the path of a SQLite file.")
  String reuse;

  @Override
  public Integer call() throws Exception {
    ArgusConfig conf = ArgusConfig.load(config, System.getenv());
    Vertx vertx = Vertx.vertx();
    String pgName = null;
    Database db;
    boolean sqlite = !store.equals("postgres");
    if (reuse != null && !sqlite && !reuse.matches("[a-z_][a-z0-9_]{0,62}")) {
      throw new IllegalArgumentException("--reuse takes a PostgreSQL database name (lower-case letters, digits, _)");
    }
    if (reuse != null && sqlite) {
      db = get(Database.sqlite(vertx, Path.of(reuse)));
    } else if (reuse != null) {
      pgName = reuse;
      keep = true;
      db = get(Database.postgres(vertx, conf.pg().withDatabase(pgName)));
    } else if (!sqlite) {
      pgName = "argus_bench_graph_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
      try (Connection admin = jdbc(conf.pg().withDatabase("postgres")); Statement st = admin.createStatement()) {
        st.execute("CREATE DATABASE " + pgName);
      }
      db = get(Database.postgres(vertx, conf.pg().withDatabase(pgName)));
    } else {
      Files.createDirectories(dir);
      Path file = dir.resolve("graph-" + UUID.randomUUID() + ".db");
      db = get(Database.sqlite(vertx, file));
    }
    try {
      run(conf, vertx, db, pgName);
    } finally {
      get(db.close());
      get(vertx.close());
      if (pgName != null && keep) {
        System.out.println("kept database " + pgName);
      } else if (pgName != null) {
        try (Connection admin = jdbc(conf.pg().withDatabase("postgres")); Statement st = admin.createStatement()) {
          st.execute("DROP DATABASE IF EXISTS " + pgName);
        }
      }
    }
    return 0;
  }

  private void run(ArgusConfig conf, Vertx vertx, Database db, String pgName) throws Exception {
    GraphStore graph = GraphStores.create(db, conf.graph().cacheNodes());
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    RecordValidator validator = new RecordValidator(new Fingerprinter(key), 1 << 20);
    RiskLists lists = RiskLists.load(conf.graph().extraFreeMailDomains(), Path.of(conf.graph().flaggedRangesFile()),
        conf.graph().sharedIpUsers());
    RecordFacts recordFacts = new RecordFacts(lists.freeMailDomains());
    long records = 0;
    double cpuAtStart = processCpuSecs();
    double pgCpuAtStart = pgName == null ? 0 : backendCpuSecs(conf, pgName);
    long start = System.nanoTime();
    Facts facts = new Facts();
    int inBatch = 0;
    Future<?> inFlight = Future.succeededFuture();
    try (BufferedReader in = reuse != null ? new BufferedReader(new java.io.StringReader(""))
        : Files.newBufferedReader(world, StandardCharsets.UTF_8)) {
      long n = 0;
      for (String line; (line = in.readLine()) != null; ) {
        RecordValidator.Line l = validator.line(++n, line);
        if (l.record() == null) {
          continue;
        }
        recordFacts.add(l.record().body(), facts);
        records++;
        if (++inBatch == batch) {
          // one batch in flight: the next one is validated and turned into facts while the store writes this one
          get(inFlight);
          inFlight = graph.apply(facts);
          facts = new Facts();
          inBatch = 0;
          if (records % 100_000 < batch) {
            System.out.printf("  %,d records, %.0f records/s%n", records, records / secs(start));
          }
        }
      }
    }
    get(inFlight);
    get(graph.apply(facts));
    double buildSecs = secs(start);
    double javaCpu = processCpuSecs() - cpuAtStart;
    double pgCpu = pgName == null ? 0 : backendCpuSecs(conf, pgName) - pgCpuAtStart;
    var stats = get(graph.stats());
    System.out.printf("store: %s%n", db);
    System.out.printf("build: %,d records in %.1f s = %.0f records/s; %,d provenance rows = %.0f rows/s%n", records,
        buildSecs, records / buildSecs, stats.getLong("sources"), stats.getLong("sources") / buildSecs);
    // CPU seconds do not depend on how busy the shared machine is: the build's cost, whatever its wall time
    System.out.printf("build cpu: this process %.1f s, its PostgreSQL backends %.1f s (%.0f records per CPU-second)%n",
        javaCpu, pgCpu, records / (javaCpu + pgCpu));
    System.out.printf("graph: %,d nodes, %,d edges, %,d provenance rows%n", stats.getLong("nodes"),
        stats.getLong("edges"), stats.getLong("sources"));
    if (pgName != null) {
      // as the service's StatisticsVerticle does within store.analyzeCheckMs of a load
      long t = System.nanoTime();
      List<String> analysed = get(dev.argus.store.PlannerStatistics.refreshStale(db));
      System.out.printf("planner statistics refreshed in %.1f s: %s%n", secs(t), analysed.isEmpty() ? "none stale"
          : String.join(", ", analysed));
    }
    GraphAnalysis analysis = new GraphAnalysis(graph, conf.graph().fanout(), conf.graph().nodeLimit());
    Random rnd = new Random(5);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < queries; i++) {
      ids.add(String.format("S-%06d", 1 + rnd.nextInt(sellers)));
    }
    GraphQueries.Bounds twoHop = new GraphQueries.Bounds(2, conf.graph().fanout(), conf.graph().nodeLimit(), 0, null);
    Random warm = new Random(11);
    for (int i = 0; i < warmup; i++) {
      String id = String.format("S-%06d", 1 + warm.nextInt(sellers));
      if (ids.contains(id)) {
        continue;
      }
      for (Function<String, Future<?>> call : List.<Function<String, Future<?>>>of(
          s -> analysis.queries().neighbourhood(s, twoHop), s -> analysis.investigate(s, 3, 0.7, null),
          s -> analysis.community(s, null))) {
        try {
          get(call.apply(id));
        } catch (RuntimeException e) {
          // a seller the world does not have: nothing to warm
        }
      }
    }
    java.util.function.DoubleSupplier cpu = () -> processCpuSecs() + (pgName == null ? 0 : backendCpuSecs(conf, pgName));
    time("2-hop neighbourhood", ids, id -> analysis.queries().neighbourhood(id, twoHop), cpu);
    time("investigate", ids, id -> analysis.investigate(id, 3, 0.7, null), cpu);
    time("community", ids, id -> analysis.community(id, null), cpu);
    System.gc();
    Runtime rt = Runtime.getRuntime();
    System.out.printf("memory: heap used after GC %,d MB (max %,d MB), peak RSS %s%n",
        (rt.totalMemory() - rt.freeMemory()) >> 20, rt.maxMemory() >> 20, peakRss());
  }

  private static void time(String what, List<String> ids, Function<String, Future<?>> call,
                           java.util.function.DoubleSupplier cpu) {
    long[] ms = new long[ids.size()];
    double cpuBefore = cpu.getAsDouble();
    int failed = 0;
    for (int i = 0; i < ids.size(); i++) {
      long t = System.nanoTime();
      try {
        get(call.apply(ids.get(i)));
      } catch (RuntimeException e) {
        failed++;
      }
      ms[i] = (System.nanoTime() - t) / 1_000;
    }
    double cpuMs = (cpu.getAsDouble() - cpuBefore) * 1000 / ids.size();
    Arrays.sort(ms);
    System.out.printf("%s: p50 %.1f ms, p95 %.1f ms, max %.1f ms over %d subjects (%d not found); CPU %.1f ms a call "
        + "(this process and its PostgreSQL backends, whatever the load)%n", what,
        ms[ms.length / 2] / 1000.0, ms[(int) (ms.length * 0.95)] / 1000.0, ms[ms.length - 1] / 1000.0, ids.size(),
        failed, cpuMs);
  }

  private static double processCpuSecs() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
  }

  /** CPU time (user + system) of the server processes serving this database, from /proc (0 when unreadable). */
  private static double backendCpuSecs(ArgusConfig conf, String database) {
    double total = 0;
    try (Connection admin = jdbc(conf.pg().withDatabase("postgres"));
         var st = admin.prepareStatement("SELECT pid FROM pg_stat_activity WHERE datname = ?")) {
      st.setString(1, database);
      var rs = st.executeQuery();
      while (rs.next()) {
        String stat = Files.readString(Path.of("/proc/" + rs.getInt(1) + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        total += (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
      }
    } catch (Exception e) {
      return 0;
    }
    return total;
  }

  private static String peakRss() {
    try {
      return Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("VmHWM"))
          .map(l -> l.replaceAll("\\s+", " ").substring(7)).findFirst().orElse("?");
    } catch (Exception e) {
      return "?";
    }
  }

  private static double secs(long start) {
    return (System.nanoTime() - start) / 1e9;
  }

  private static Connection jdbc(PgConf pg) throws Exception {
    return DriverManager.getConnection("jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + pg.database(),
        pg.user(), pg.password());
  }

  private static <T> T get(Future<T> f) {
    try {
      return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.MINUTES);
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
