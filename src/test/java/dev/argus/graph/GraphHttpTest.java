package dev.argus.graph;

import dev.argus.bus.Addresses;
import dev.argus.config.ArgusConfig;
import dev.argus.records.world.WorldGenerator;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.StringWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The graph over real HTTP against the whole service: a generated world is loaded through {@code POST /api/records}
 * (so the graph is built by the records loader's graph step), then the entity API answers, refuses bad input, and the
 * world's planted patterns are findable while its traps do not look like fraud. Labels are read from the generated
 * file here, for measurement only.
 */
class GraphHttpTest {

  private static Vertx vertx;
  private static TestApp app;
  private static WebClient client;
  /** Seller ids by label group (e.g. mule_network-1), from the generated file. */
  private static final Map<String, List<String>> groups = new LinkedHashMap<>();
  private static final Map<String, String> patternOfGroup = new LinkedHashMap<>();

  @BeforeAll
  static void start() {
    groups.clear();
    patternOfGroup.clear();
    vertx = Vertx.vertx();
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir()).with("http", "maxBodyBytes", 64 * 1024 * 1024)
        .with("records", "caseDocuments", false);
    app = await(TestApp.start(vertx, conf));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
    StringWriter out = new StringWriter();
    WorldGenerator.generate(WorldGenerator.MIN_SELLERS, 11, out);
    for (String line : out.toString().split("\n")) {
      JsonObject r = new JsonObject(line);
      JsonObject label = r.getJsonObject("label");
      if ("seller".equals(r.getString("kind")) && label != null && label.getString("group") != null) {
        groups.computeIfAbsent(label.getString("group"), k -> new ArrayList<>()).add(r.getString("id"));
        patternOfGroup.put(label.getString("group"), label.getString("pattern"));
      }
    }
    // in slices of 500 lines: one huge body would hold the HTTP event loop while it is read into one string
    String[] lines = out.toString().split("\n");
    for (int from = 0; from < lines.length; from += 500) {
      String part = String.join("\n", java.util.Arrays.copyOfRange(lines, from, Math.min(lines.length, from + 500)));
      HttpResponse<Buffer> r = await(client.post("/api/records?wait=true").putHeader("Content-Type",
          "application/jsonl").sendBuffer(Buffer.buffer(part)), 600);
      assertEquals(201, r.statusCode(), r.bodyAsString());
    }
  }

  @AfterAll
  static void stop() {
    await(app.stop());
    await(vertx.close());
  }

  static HttpResponse<Buffer> get(String path) {
    return await(client.get(path).send());
  }

  static String enc(String id) {
    return URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
  }

  static List<String> sellersOf(String pattern) {
    return groups.entrySet().stream().filter(e -> pattern.equals(patternOfGroup.get(e.getKey()))).findFirst()
        .map(Map.Entry::getValue).orElseThrow(() -> new AssertionError("no group " + pattern + " in " + groups.keySet()));
  }

  static void assertError(HttpResponse<Buffer> r, int status, String code) {
    assertEquals(status, r.statusCode(), r.bodyAsString());
    assertEquals(code, r.bodyAsJsonObject().getString("code"), r.bodyAsString());
    assertTrue(r.bodyAsJsonObject().containsKey("error"));
  }

  @Test
  void entitiesSearchAndGraphView() {
    HttpResponse<Buffer> s = get("/api/entities/S-000001");
    assertEquals(200, s.statusCode(), s.bodyAsString());
    JsonObject seller = s.bodyAsJsonObject();
    assertEquals("seller", seller.getString("type"));
    assertEquals("[entity:seller:S-000001]", seller.getString("cite"));
    assertTrue(seller.getLong("degree") > 0);

    String label = seller.getString("label");
    String typo = label.substring(0, label.length() - 1);
    JsonArray hits = get("/api/entities/search?q=" + enc(typo) + "&type=seller").bodyAsJsonObject()
        .getJsonArray("entities");
    assertTrue(hits.stream().anyMatch(o -> ((JsonObject) o).getString("id").equals("S-000001")), hits.encode());

    JsonObject view = get("/api/entities/S-000001/graph?depth=2&limit=40").bodyAsJsonObject();
    assertTrue(view.getJsonArray("nodes").size() <= 40);
    JsonObject edge = view.getJsonArray("edges").getJsonObject(0);
    assertTrue(edge.getJsonArray("provenance").getJsonObject(0).getString("kind").equals("record"), edge.encode());
    HttpResponse<Buffer> rel = get("/api/relations/" + edge.getString("id"));
    assertEquals(edge.getString("type"), rel.bodyAsJsonObject().getString("type"));

    assertError(get("/api/entities/S-999999"), 404, "not_found");
    assertError(get("/api/entities/search"), 400, "missing_field");
    assertError(get("/api/entities/S-000001/graph?depth=4"), 400, "invalid_parameter");
    assertError(get("/api/entities/S-000001/graph?depth=two"), 400, "invalid_parameter");
    assertError(get("/api/entities/S-000001/graph?minWeight=2"), 400, "invalid_parameter");
  }

  @Test
  void investigateOverHttp() {
    String mule = sellersOf("mule_network").get(0);
    HttpResponse<Buffer> r = await(client.post("/api/graph/investigate")
        .sendJsonObject(new JsonObject().put("entity", mule)));
    assertEquals(200, r.statusCode(), r.bodyAsString());
    JsonObject body = r.bodyAsJsonObject();
    assertEquals(3, body.getJsonArray("hops").size());
    assertEquals(0.7, body.getDouble("minWeight"));
    assertError(await(client.post("/api/graph/investigate").sendJsonObject(new JsonObject().put("entity", mule)
        .put("maxHops", 9))), 400, "invalid_parameter");
    assertError(await(client.post("/api/graph/investigate").sendJsonObject(new JsonObject())), 400, "missing_field");
    assertError(await(client.post("/api/graph/investigate").putHeader("Content-Type", "application/json")
        .sendBuffer(Buffer.buffer("[1,"))), 400, "invalid_json");
    assertError(await(client.post("/api/graph/investigate").sendJsonObject(new JsonObject().put("entity", "S-999999"))),
        404, "not_found");
  }

  private static JsonObject bus(String address, JsonObject body) {
    return await(vertx.eventBus().<JsonObject>request(address, body)).body();
  }

  @Test
  void muleNetworkSharesOnePayoutAccount() {
    List<String> mules = sellersOf("mule_network");
    JsonObject view = get("/api/entities/" + mules.get(0) + "/graph?depth=1").bodyAsJsonObject();
    String bank = view.getJsonArray("nodes").stream().map(o -> ((JsonObject) o).getString("id"))
        .filter(id -> id.startsWith("bank:")).findFirst().orElseThrow();
    JsonObject connections = bus(Addresses.GRAPH_CONNECTIONS, new JsonObject().put("id", mules.get(0)));
    JsonObject shared = connections.getJsonArray("items").stream().map(o -> (JsonObject) o)
        .filter(o -> o.getString("identifier").equals(bank)).findFirst().orElseThrow();
    assertEquals(mules.size() - 1, shared.getJsonArray("sharedWith").size(), "every other mule pays out there");
  }

  @Test
  void syntheticIdentitiesShareIdentifiersAndCarryRisk() {
    List<String> synthetic = sellersOf("synthetic_identity");
    JsonObject connections = bus(Addresses.GRAPH_CONNECTIONS, new JsonObject().put("id", synthetic.get(0)));
    // one phone, one device and one building shared by every member
    assertTrue(connections.getJsonObject("signals").getInteger("linkedSubjects") >= synthetic.size() - 1,
        connections.encode());
    JsonObject risk = bus(Addresses.GRAPH_RISK_PROPAGATION, new JsonObject().put("id", synthetic.get(0)));
    assertTrue(risk.getJsonObject("signals").getDouble("riskScore") >= 0.75, risk.encode());
    JsonObject rings = bus(Addresses.GRAPH_RINGS, new JsonObject().put("id", synthetic.get(0)));
    assertTrue(rings.getJsonObject("signals").getInteger("rings") >= 1, rings.encode());
  }

  @Test
  void trapsDoNotLookLikeFraudByThemselves() {
    for (String pattern : List.of("trap_family_address", "trap_coworking_ip", "trap_agency")) {
      for (String seller : sellersOf(pattern)) {
        JsonObject risk = bus(Addresses.GRAPH_RISK_PROPAGATION, new JsonObject().put("id", seller));
        // no risk event and no fraud case: at most a pending case's 0.3
        assertTrue(risk.getJsonObject("signals").getDouble("ownRisk") <= 0.3, pattern + " " + risk.encode());
        assertTrue(risk.getJsonObject("signals").getDouble("riskScore") < 0.5, pattern + " " + risk.encode());
      }
    }
  }
}
