package dev.argus.citations;

import dev.argus.bus.Addresses;
import dev.argus.config.ArgusConfig;
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

import java.util.List;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Citation validation against the real graph: a small hand-built record set loaded through {@code POST /api/records}
 * (validator, record store, {@code argus.graph.records.apply}, graph store on SQLite), then validated over the bus.
 * The graph weighs USES_DEVICE and USES_PHONE 0.9, PAYS_OUT_TO 1.0, LOGGED_IN_FROM 0.7:
 * <pre>
 *   S-1 -USES_DEVICE- device:d-1 -USES_DEVICE- S-2 -PAYS_OUT_TO- bank:fp -PAYS_OUT_TO- S-3 -USES_PHONE- phone:+4915112345678
 *   S-1 -LOGGED_IN_FROM- ip:203.0.113.7 -LOGGED_IN_FROM- S-4
 * </pre>
 * S-3 was created on 2025-03-01, the others earlier.
 */
class CitationsOnGraphTest {

  private static Vertx vertx;
  private static TestApp app;
  private static WebClient client;

  @BeforeAll
  static void start() {
    CitationsHttpTest.warmUpNettyOffTheEventLoop();
    vertx = Vertx.vertx();
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir());
    app = await(TestApp.start(vertx, conf));
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
    load(String.join("\n",
        seller("S-1", "2025-01-01", ",\"email\":\"ana.one@gmail.com\",\"deviceIds\":[\"d-1\"],\"ips\":[\"203.0.113.7\"]"),
        seller("S-2", "2025-02-01", ",\"email\":\"ben.two@gmail.com\",\"deviceIds\":[\"d-1\"],"
            + "\"bankAccount\":\"DE89370400440532013000\""),
        seller("S-3", "2025-03-01", ",\"bankAccount\":\"DE89 3704 0044 0532 0130 00\",\"phone\":\"+49 151 12345678\""),
        seller("S-4", "2025-01-15", ",\"ips\":[\"203.0.113.7\"]")));
  }

  @AfterAll
  static void stop() {
    await(app.stop());
    await(vertx.close());
  }

  static String seller(String id, String day, String extra) {
    return "{\"kind\":\"seller\",\"id\":\"" + id + "\",\"createdAt\":\"" + day + "T00:00:00Z\",\"legalName\":\"Person "
        + id + "\",\"country\":\"DE\"" + extra + "}";
  }

  static void load(String jsonl) {
    HttpResponse<Buffer> r = await(client.post("/api/records?wait=true").putHeader("Content-Type", "application/jsonl")
        .sendBuffer(Buffer.buffer(jsonl)));
    assertEquals(201, r.statusCode(), r.bodyAsString());
    JsonObject job = r.bodyAsJsonObject();
    assertEquals(0, job.getInteger("failed"), job.encode());
    assertTrue(job.getJsonObject("graph").getInteger("applied", 0) > 0, job.encode());
  }

  static List<CitationResult> validate(JsonObject body) {
    JsonObject reply = await(vertx.eventBus().<JsonObject>request(Addresses.CITATIONS_VALIDATE, body)).body();
    return reply.getJsonArray("results").stream().map(o -> CitationResult.fromJson((JsonObject) o)).toList();
  }

  static CitationResult one(String citation, JsonObject claim, String asOf) {
    JsonObject item = new JsonObject().put("citation", citation);
    if (claim != null) {
      item.put("claim", claim);
    }
    JsonObject body = new JsonObject().put("citations", new JsonArray().add(item));
    return validate(asOf == null ? body : body.put("asOf", asOf)).get(0);
  }

  static JsonObject to(String to, String relation) {
    JsonObject c = new JsonObject().put("to", to);
    return relation == null ? c : c.put("relation", relation);
  }

  @Test
  void entitiesExistWithTheirTypes() {
    CitationValidatorTest.assertConfidence(one("[entity:seller:S-1]", null, null), 0, 1.0, CitationStatus.VALID);
    CitationValidatorTest.assertConfidence(one("[entity:device:d-1]", null, null), 0, 1.0, CitationStatus.VALID);
    assertEquals("entity S-1 is a seller, not a buyer", one("[entity:buyer:S-1]", null, null).reason());
    assertEquals("entity S-404 not found in the graph", one("[entity:seller:S-404]", null, null).reason());
  }

  @Test
  void storedRelationsCountOne() {
    JsonObject hood = await(vertx.eventBus().<JsonObject>request(Addresses.GRAPH_NEIGHBOURHOOD,
        new JsonObject().put("id", "S-1").put("depth", 1))).body();
    JsonObject deviceEdge = hood.getJsonArray("edges").stream().map(JsonObject.class::cast)
        .filter(e -> "USES_DEVICE".equals(e.getString("type"))).findFirst().orElseThrow();
    CitationResult r = one("[rel:" + deviceEdge.getString("id") + "]", null, null);
    // a stored relation: min(1.0, 1.0) x (1 - 0.1 x 0) = 1.0, whatever its weight (0.9)
    CitationValidatorTest.assertConfidence(r, 0, 1.0, CitationStatus.VALID);
    assertEquals("USES_DEVICE", r.relation());
    // the edge's own cite form is accepted as well
    assertEquals(CitationStatus.VALID, one(deviceEdge.getString("cite"), null, null).status());
    assertEquals(CitationStatus.EXCLUDED, one("[rel:00000000000000000000]", null, null).status());
    // a claim of the stored edge found by path: depth 0
    CitationValidatorTest.assertConfidence(one("[entity:seller:S-1]", to("device:d-1", "USES_DEVICE"), null), 0, 1.0,
        CitationStatus.VALID);
  }

  @Test
  void inferredRelationsAtEachDepthOfTheRealGraph() {
    // same device: min(1.0, 0.9) x (1 - 0.1 x 2) = 0.72
    CitationResult device = one("[entity:seller:S-1]", to("S-2", "LINKED_ACCOUNTS"), null);
    CitationValidatorTest.assertConfidence(device, 2, 0.72, CitationStatus.VALID);
    assertTrue(device.reasoning().stream().anyMatch(s -> "same_device".equals(s.rule())), device.reasoning().toString());
    // same payout account (the IBAN written with and without spaces): min(1.0, 1.0) x 0.8 = 0.8
    CitationResult payout = one("[entity:seller:S-2]", to("S-3", "SAME_CONTROLLER"), null);
    CitationValidatorTest.assertConfidence(payout, 2, 0.8, CitationStatus.VALID);
    assertTrue(payout.reasoning().stream().anyMatch(s -> "same_payout_account".equals(s.rule())));
    // S-1 ~device~ S-2 -uses-> its email: min(1.0, 0.9) x (1 - 0.1 x 3) = 0.63
    CitationValidatorTest.assertConfidence(one("[entity:seller:S-1]", to("email:bentwo@gmail.com", "LINKED"), null),
        3, 0.63, CitationStatus.VALID);
    // transitive, mixed: min(1.0, 0.9) x 0.6 = 0.54
    CitationResult chain = one("[entity:seller:S-1]", to("S-3", "LINKED"), null);
    CitationValidatorTest.assertConfidence(chain, 4, 0.54, CitationStatus.VALID);
    // to S-3's phone: min(1.0, 0.9) x 0.5 = 0.45 -> flagged
    CitationValidatorTest.assertConfidence(one("[entity:seller:S-1]", to("phone:+4915112345678", null), null), 5,
        0.45, CitationStatus.FLAGGED);
    // a shared IP address is not a rule
    CitationResult ip = one("[entity:seller:S-1]", to("S-4", null), null);
    assertEquals(CitationStatus.EXCLUDED, ip.status());
    assertTrue(ip.reason().startsWith("no inference rule covers"), ip.reason());
  }

  @Test
  void asOfHidesLaterFacts() {
    // S-3 (and its payout edge) appeared on 2025-03-01
    CitationResult before = one("[entity:seller:S-2]", to("S-3", "SAME_CONTROLLER"), "2025-02-15T00:00:00Z");
    assertEquals(CitationStatus.EXCLUDED, before.status(), before.reason());
    CitationValidatorTest.assertConfidence(one("[entity:seller:S-2]", to("S-3", "SAME_CONTROLLER"),
        "2025-03-02T00:00:00Z"), 2, 0.8, CitationStatus.VALID);
  }

  @Test
  void aGraphChangeDropsCachedAnswers() {
    CitationResult first = one("[entity:seller:S-5]", null, null);
    assertEquals(CitationStatus.EXCLUDED, first.status());
    load(seller("S-5", "2025-01-20", ",\"deviceIds\":[\"d-1\"]"));
    // the missing entity was cached; argus.graph.changed dropped it
    CitationValidatorTest.assertConfidence(one("[entity:seller:S-5]", null, null), 0, 1.0, CitationStatus.VALID);
    // and S-5 now shares S-1's device: min(1.0, 0.9) x 0.8 = 0.72
    CitationValidatorTest.assertConfidence(one("[entity:seller:S-5]", to("S-1", "LINKED_ACCOUNTS"), null), 2, 0.72,
        CitationStatus.VALID);
  }
}
