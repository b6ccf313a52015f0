package dev.argus.bench;

import dev.argus.app.MainVerticle;
import dev.argus.bus.Addresses;
import dev.argus.config.ArgusConfig;
import dev.argus.config.ConfigException;
import dev.argus.config.ConfigLoader;
import dev.argus.graph.Types;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code argus bench-citations} (hidden): latency of citation validation ({@code argus.graph.citations.validate}) on
 * a loaded world. Starts the service on {@code --data-dir}; when its records store is empty and {@code --world} is
 * given, loads the world first through the real record load path (which feeds the entity graph). Then draws sellers,
 * builds a mixed workload from their neighbourhoods — entity citations, stored relations, claims of a stored edge
 * (depth 0), claims between sellers two or more hops apart (inferred), claims to an account sharing a rule's
 * identifier (a device, payout account, tax id, e-mail, phone or card: inferred at depth 2) and claims between random sellers (mostly no
 * path: the bounded search's worst case) — and sends one citation per request from one client (closed loop), twice:
 * a first pass (cold graph cache: every question new) and a second (warm). Prints p50/p95/p99 per citation per kind
 * and overall, the statuses and depths seen, and the load average.
 */
@Command(name = "bench-citations", hidden = true, mixinStandardHelpOptions = true,
    description = "Benchmark citation validation latency on a loaded world (not a test).")
public final class BenchCitationsCommand implements Callable<Integer> {

  @Option(names = "--config", defaultValue = "conf/argus.json", description = "configuration file (default: ${DEFAULT-VALUE})")
  Path config;

  @Option(names = "--data-dir", required = true, description = "data folder holding (or to hold) the loaded world")
  Path dataDir;

  @Option(names = "--world", description = "JSON Lines world to load when the records store is empty")
  Path world;

  @Option(names = "--sellers", defaultValue = "300", description = "sellers to draw (default: ${DEFAULT-VALUE})")
  int sellers;

  @Option(names = "--seed", defaultValue = "7", description = "sampling seed (default: ${DEFAULT-VALUE})")
  long seed;

  @Option(names = "--chunk-mb", defaultValue = "16", description = "MB of JSON Lines per load request (default: ${DEFAULT-VALUE})")
  int chunkMb;

  private Vertx vertx;

  @Override
  public Integer call() throws Exception {
    ArgusConfig conf;
    try {
      JsonObject raw = ConfigLoader.load(config, System.getenv());
      raw.getJsonObject("data").put("dir", dataDir.toString());
      raw.getJsonObject("http").put("port", 0).put("host", "127.0.0.1");
      raw.getJsonObject("ingest").put("loadSamples", false);
      raw.getJsonObject("records").put("sampleWorldSellers", 0).put("caseDocuments", false);
      conf = ArgusConfig.from(raw);
    } catch (ConfigException e) {
      System.err.println("bench-citations: configuration error: " + e.getMessage());
      return 2;
    }
    Files.createDirectories(dataDir);
    vertx = Vertx.vertx();
    try {
      MainVerticle main = new MainVerticle(conf);
      await(vertx.deployVerticle(main), 600);
      System.out.println("== load average: " + loadAverage() + " (2 cores shared)");
      JsonObject firstPage = query(0, 1);
      if (firstPage.getJsonArray("records").isEmpty()) {
        if (world == null) {
          System.err.println("bench-citations: the records store is empty; give --world");
          return 2;
        }
        load(world);
      }
      List<String> sample = drawSellers();
      System.out.println("sellers drawn: " + sample.size());
      Map<String, List<JsonObject>> workload = workload(sample);
      workload.forEach((k, v) -> System.out.println("  " + k + ": " + v.size() + " citations"));
      for (String pass : List.of("first pass (cold cache)", "second pass (warm cache)")) {
        System.out.println("== " + pass + ", load average " + loadAverage());
        run(workload);
      }
      return 0;
    } finally {
      await(vertx.close(), 120);
    }
  }

  private void load(Path file) throws Exception {
    long started = System.nanoTime();
    long lines = 0;
    long limit = chunkMb * 1024L * 1024L;
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      StringBuilder chunk = new StringBuilder();
      String line;
      while ((line = in.readLine()) != null) {
        chunk.append(line).append('\n');
        lines++;
        if (chunk.length() >= limit) {
          loadChunk(chunk.toString(), lines, started);
          chunk.setLength(0);
        }
      }
      if (chunk.length() > 0) {
        loadChunk(chunk.toString(), lines, started);
      }
    }
    System.out.printf(Locale.ROOT, "loaded %d lines in %.0f s%n", lines, (System.nanoTime() - started) / 1e9);
  }

  private void loadChunk(String text, long lines, long started) throws Exception {
    JsonObject job = await(vertx.eventBus().<JsonObject>request(Addresses.RECORDS_LOAD,
        new JsonObject().put("text", text).put("wait", true), new DeliveryOptions().setSendTimeout(3_600_000)), 3600)
        .body();
    System.out.printf(Locale.ROOT, "  %,d lines, %.0f s: %s graph %s%n", lines, (System.nanoTime() - started) / 1e9,
        job.getString("status"), job.getJsonObject("graph", new JsonObject()).encode());
  }

  private JsonObject query(int offset, int limit) throws Exception {
    return await(vertx.eventBus().<JsonObject>request(Addresses.RECORDS_QUERY, new JsonObject()
        .put("kinds", new JsonArray().add("seller")).put("offset", offset).put("limit", limit)), 120).body();
  }

  private List<String> drawSellers() throws Exception {
    List<String> all = new ArrayList<>();
    for (int offset = 0; ; offset += 1000) {
      JsonObject page = query(offset, 1000);
      page.getJsonArray("records").forEach(r -> all.add(((JsonObject) r).getString("id")));
      if (!page.getBoolean("hasMore", false) || offset >= 1_000_000) {
        break;
      }
    }
    System.out.println("sellers in the store: " + all.size());
    Random random = new Random(seed);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < Math.min(sellers, all.size()); i++) {
      out.add(all.get(random.nextInt(all.size())));
    }
    return out;
  }

  private Map<String, List<JsonObject>> workload(List<String> sample) throws Exception {
    Map<String, List<JsonObject>> w = new LinkedHashMap<>();
    for (String k : List.of("entity", "relation", "claim_stored_edge", "claim_inferred", "claim_rule", "claim_random")) {
      w.put(k, new ArrayList<>());
    }
    Random random = new Random(seed + 1);
    for (String seller : sample) {
      w.get("entity").add(item("[entity:seller:" + seller + "]", null));
      JsonObject hood = await(vertx.eventBus().<JsonObject>request(Addresses.GRAPH_NEIGHBOURHOOD,
          new JsonObject().put("id", seller).put("depth", 2).put("limit", 200)), 120).body();
      JsonArray edges = hood.getJsonArray("edges", new JsonArray());
      for (Object o : edges) {
        JsonObject e = (JsonObject) o;
        if (seller.equals(e.getString("from")) || seller.equals(e.getString("to"))) {
          w.get("relation").add(item("[rel:" + e.getString("id") + "]", null));
          String other = seller.equals(e.getString("from")) ? e.getString("to") : e.getString("from");
          w.get("claim_stored_edge").add(item("[entity:seller:" + seller + "]", new JsonObject().put("to", other)));
          break;
        }
      }
      Map<String, String> types = nodeTypes(hood);
      List<String> accounts = new ArrayList<>();
      types.forEach((id, type) -> {
        if (("seller".equals(type) || "buyer".equals(type)) && !seller.equals(id)) {
          accounts.add(id);
        }
      });
      String ruled = accountSharingAnIdentifier(seller, edges, types, random);
      if (ruled != null) {
        w.get("claim_rule").add(item("[entity:seller:" + seller + "]", new JsonObject().put("to", ruled)));
      }
      if (!accounts.isEmpty()) {
        w.get("claim_inferred").add(item("[entity:seller:" + seller + "]",
            new JsonObject().put("to", accounts.get(random.nextInt(accounts.size())))));
      }
      String other = sample.get(random.nextInt(sample.size()));
      if (!other.equals(seller)) {
        w.get("claim_random").add(item("[entity:seller:" + seller + "]", new JsonObject().put("to", other)));
      }
    }
    return w;
  }

  /** Identifier types an inference rule links accounts through (conf/citations/rules.json). */
  private static final Set<String> RULE_TYPES = Set.of(Types.DEVICE, Types.BANK_ACCOUNT, Types.TAX_ID, Types.EMAIL,
      Types.PHONE, Types.CARD);

  /**
   * Another account reached from {@code seller} through one identifier a rule covers (a shared device, payout account,
   * tax id, e-mail, phone or card: a claim validated by inference at depth 2), or null when the neighbourhood has none.
   */
  private static String accountSharingAnIdentifier(String seller, JsonArray edges, Map<String, String> types,
                                                   Random random) {
    Set<String> identifiers = new java.util.HashSet<>();
    for (Object o : edges) {
      JsonObject e = (JsonObject) o;
      String other = seller.equals(e.getString("from")) ? e.getString("to")
          : seller.equals(e.getString("to")) ? e.getString("from") : null;
      if (other != null && RULE_TYPES.contains(types.get(other))) {
        identifiers.add(other);
      }
    }
    List<String> accounts = new ArrayList<>();
    for (Object o : edges) {
      JsonObject e = (JsonObject) o;
      String from = e.getString("from");
      String to = e.getString("to");
      String other = identifiers.contains(from) ? to : identifiers.contains(to) ? from : null;
      if (other != null && !other.equals(seller)
          && ("seller".equals(types.get(other)) || "buyer".equals(types.get(other)))) {
        accounts.add(other);
      }
    }
    return accounts.isEmpty() ? null : accounts.get(random.nextInt(accounts.size()));
  }

  /** Each node of a neighbourhood reply (an array of nodes or a map by id) with its type, in reply order. */
  private static Map<String, String> nodeTypes(JsonObject hood) {
    Map<String, String> types = new LinkedHashMap<>();
    Object nodes = hood.getValue("nodes");
    if (nodes instanceof JsonArray arr) {
      arr.stream().filter(JsonObject.class::isInstance).map(JsonObject.class::cast)
          .forEach(n -> types.put(n.getString("id"), n.getString("type")));
    } else if (nodes instanceof JsonObject map) {
      map.fieldNames().forEach(id -> types.put(id, map.getJsonObject(id).getString("type")));
    }
    return types;
  }

  private static JsonObject item(String citation, JsonObject claim) {
    JsonObject i = new JsonObject().put("citation", citation);
    return claim == null ? i : i.put("claim", claim);
  }

  private void run(Map<String, List<JsonObject>> workload) throws Exception {
    List<Double> all = new ArrayList<>();
    Map<String, Integer> statuses = new TreeMap<>();
    Map<Integer, Integer> depths = new TreeMap<>();
    for (Map.Entry<String, List<JsonObject>> e : workload.entrySet()) {
      List<Double> lat = new ArrayList<>();
      for (JsonObject item : e.getValue()) {
        long t0 = System.nanoTime();
        JsonObject reply = await(vertx.eventBus().<JsonObject>request(Addresses.CITATIONS_VALIDATE,
            new JsonObject().put("citations", new JsonArray().add(item))), 60).body();
        double ms = (System.nanoTime() - t0) / 1e6;
        lat.add(ms);
        JsonObject r = reply.getJsonArray("results").getJsonObject(0);
        statuses.merge(e.getKey() + ":" + r.getString("status"), 1, Integer::sum);
        depths.merge(r.getInteger("depth"), 1, Integer::sum);
      }
      all.addAll(lat);
      print(e.getKey(), lat);
    }
    print("all", all);
    System.out.println("  statuses: " + statuses);
    System.out.println("  depths: " + depths);
  }

  private static void print(String name, List<Double> lat) {
    if (lat.isEmpty()) {
      System.out.printf(Locale.ROOT, "  %-18s n=0%n", name);
      return;
    }
    System.out.printf(Locale.ROOT, "  %-18s n=%5d  p50 %7.2f ms  p95 %7.2f ms  p99 %7.2f ms  max %7.2f ms%n", name,
        lat.size(), ChatLoad.percentile(lat, 50), ChatLoad.percentile(lat, 95), ChatLoad.percentile(lat, 99),
        ChatLoad.percentile(lat, 100));
  }

  private static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + " " + parts[1] + " " + parts[2];
    } catch (Exception e) {
      return "unknown";
    }
  }

  private static <T> T await(Future<T> f, long seconds) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(seconds, TimeUnit.SECONDS);
  }
}
