package dev.argus.graph;

import dev.argus.agent.tools.EvidenceItem;
import dev.argus.agent.tools.GraphTools;
import dev.argus.agent.tools.ToolExecutor;
import dev.argus.bus.Addresses;
import dev.argus.config.ArgusConfig;
import dev.argus.store.Database;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The graph tools through the real tool executor, the graph verticle and a real SQLite store holding
 * {@link GraphWorld}; expected numbers are computed by hand in the comments.
 */
class GraphToolsTest {

  private static Vertx vertx;
  private static ToolExecutor tools;

  @BeforeAll
  static void start() {
    vertx = Vertx.vertx();
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir());
    Database db = await(Database.sqlite(vertx, conf.data().sqliteFile()));
    await(vertx.deployVerticle(new GraphVerticle(conf.graph(), GraphStores.create(db), GraphWorld.FP),
        GraphVerticle.deploymentOptions()));
    await(vertx.eventBus().request(Addresses.GRAPH_RECORDS_APPLY, new JsonObject().put("change", "upsert")
        .put("records", GraphWorld.stored(GraphWorld.wire()))));
    tools = new ToolExecutor(vertx, GraphTools.all(vertx, 10_000), new ToolExecutor.Settings(10_000, 0, 10, 5, 10_000));
  }

  @AfterAll
  static void stop() {
    await(vertx.close());
  }

  private static JsonObject call(String tool, JsonObject params) {
    EvidenceItem e = await(tools.call(0, tool, params));
    assertTrue(e.success(), tool + " failed: " + e.error());
    return e.data();
  }

  private static void rejected(String tool, JsonObject params) {
    EvidenceItem e = await(tools.call(0, tool, params));
    assertFalse(e.success(), tool + " should have failed for " + params);
  }

  private static JsonObject item(JsonObject r, int i) {
    return r.getJsonArray("items").getJsonObject(i);
  }

  @Test
  void connectionsNameTheSharedIdentifiers() {
    JsonObject r = call("graph_connections", new JsonObject().put("id", "S-2"));
    // S-2 shares the e-mail and the bank account with S-1, the device d-2 with S-3; its website nobody else has
    assertEquals(3, r.getJsonObject("signals").getInteger("sharedIdentifiers"));
    assertEquals(2, r.getJsonObject("signals").getInteger("linkedSubjects"));
    assertEquals(3, r.getJsonObject("signals").getInteger("strongSharedIdentifiers"), "1.0, 0.9, 0.9");
    JsonArray items = r.getJsonArray("items");
    int at = -1;
    for (int i = 0; i < items.size(); i++) {
      if (items.getJsonObject(i).getString("identifier").equals("email:kimmarlo@gmail.com")) {
        at = i;
      }
    }
    JsonObject email = items.getJsonObject(at);
    assertEquals(List.of("S-1"), email.getJsonArray("sharedWith").getList());
    assertEquals("[rel:" + EntityIds.edge(Types.USES_EMAIL, "S-2", "email:kimmarlo@gmail.com") + "]",
        email.getString("cite"));
    assertEquals("[source:graph_connections:" + at + "]", email.getString("source"));
  }

  @Test
  void riskPropagatesWithDecayPerHop() {
    JsonObject r = call("risk_propagation", new JsonObject().put("id", "S-2"));
    // S-1 risk 1.0 (fraud case); best path S-2 -1.0- bank -1.0- S-1: 1.0 x (1.0 x 0.5) x (1.0 x 0.5) = 0.25
    // (via the e-mail: 0.9 x 0.5 x 0.9 x 0.5 = 0.2025, less)
    assertEquals(0.25, r.getJsonObject("signals").getDouble("propagatedRisk"));
    assertEquals(0.0, r.getJsonObject("signals").getDouble("ownRisk"));
    JsonObject path = item(r, 1);
    assertEquals("S-1", path.getString("seed"));
    assertEquals(2, path.getInteger("hops"));
    assertEquals("PAYS_OUT_TO", path.getJsonArray("relations").getJsonObject(0).getString("type"));
    // S-3 - d-2 - S-2 - bank - S-1 is four hops: beyond the 3-hop bound, so nothing reaches S-3
    JsonObject s3 = call("risk_propagation", new JsonObject().put("id", "S-3"));
    assertEquals(0.0, s3.getJsonObject("signals").getDouble("propagatedRisk"));
    // as of before the case was opened nothing is known to be bad: SUBJECT_OF is first seen 2025-04-01
    JsonObject early = call("risk_propagation", new JsonObject().put("id", "S-2").put("asOf", "2025-03-15T00:00:00Z"));
    // S-1's risk comes from that case, so as of before it there is no risk to propagate
    assertEquals(0.0, early.getJsonObject("signals").getDouble("propagatedRisk"),
        "node risk as of a time counts only sources dated by then");
  }

  @Test
  void ringsAndCommunitiesKeepTheirIds() {
    JsonObject r = call("find_rings", new JsonObject().put("id", "S-1"));
    // one cycle through two subjects: S-1 - email - S-2 - bank - S-1 (4 edges)
    assertEquals(1, r.getJsonObject("signals").getInteger("rings"));
    JsonObject ring = item(r, 0);
    assertEquals(List.of("S-1", "S-2"), ring.getJsonArray("subjects").getList());
    assertEquals(4, ring.getInteger("length"));
    String ringId = ring.getString("ringId");
    assertEquals(ringId, item(call("find_rings", new JsonObject().put("id", "S-2")), 0).getString("ringId"));

    JsonObject c = call("community", new JsonObject().put("id", "S-1"));
    String communityId = c.getString("communityId");
    JsonArray subjects = item(c, 0).getJsonArray("subjects");
    assertTrue(subjects.contains("S-1"), subjects.encode());
    // Jaccard(S-1, S-2) over identifiers (edges >= 0.6): S-1 {email, bank, d-1, ip .7}, S-2 {email, bank, d-2,
    // domain}: 2 shared / 6 in the union = 0.3333
    JsonObject similar = item(c, 1);
    assertEquals("S-2", similar.getString("id"));
    assertEquals(0.3333, similar.getDouble("jaccard"));
    assertEquals(communityId, call("community", new JsonObject().put("id", "S-1")).getString("communityId"));
  }

  @Test
  void investigateWalksStrongEdgesWithAnEvidenceChain() {
    JsonObject r = call("investigate", new JsonObject().put("entity", "S-2"));
    JsonObject s = r.getJsonObject("signals");
    // hop 1: email, bank, d-2, domain; hop 2: S-1 (risk 1.0), S-3; hop 3: C-1, d-1, ip .7 (0.7 >= 0.7) and S-3's
    // ip .9; the /24 network (IN_NETWORK 0.4) is below the 0.7 an investigation follows
    assertEquals(4, s.getInteger("hop1Entities"));
    assertEquals(2, s.getInteger("hop2Entities"));
    assertEquals(4, s.getInteger("hop3Entities"));
    assertEquals(1.0, s.getDouble("hop2MaxRisk"));
    assertEquals(1, s.getInteger("riskyEntities"));
    JsonObject p = item(r, 0);
    assertEquals("S-1", p.getString("id"));
    assertEquals(3, p.getJsonArray("nodes").size());
    assertEquals(2, p.getJsonArray("relations").size());
    assertTrue(r.getJsonArray("evidenceChain").getString(0).startsWith("[entity:seller:S-2] -"));
  }

  @Test
  void emailAndIpRiskSayWhatTheyKnowAndWhatNot() {
    JsonObject e = call("email_risk", new JsonObject().put("sellerId", "S-2"));
    JsonObject s = e.getJsonObject("signals");
    assertEquals(0, s.getInteger("disposableDomain"));
    assertEquals(1, s.getInteger("freeMail"), "gmail.com");
    assertEquals(1, s.getInteger("businessDomainMismatch"), "gmail.com vs marlo-shop.example");
    assertEquals(1, s.getInteger("sharedEmailUsers"), "S-1");
    assertTrue(e.getJsonArray("items").stream().map(o -> (JsonObject) o)
        .anyMatch(o -> "domain_age".equals(o.getString("name")) && "unknown".equals(o.getString("status"))));
    JsonObject d = call("email_risk", new JsonObject().put("email", "someone@mailinator.com"));
    assertEquals(1, d.getJsonObject("signals").getInteger("disposableDomain"));
    assertFalse(d.getJsonObject("signals").containsKey("businessDomainMismatch"), "unknown, not guessed");

    JsonObject ip = call("ip_risk", new JsonObject().put("sellerId", "S-1"));
    // 203.0.113.7 is in the documentation range of conf/graph/flagged-ranges.txt; S-3's 203.0.113.9 shares its /24
    assertEquals(1, ip.getJsonObject("signals").getInteger("flaggedIps"));
    assertEquals(0, ip.getJsonObject("signals").getInteger("sharedIpUsers"));
    assertEquals(1, ip.getJsonObject("signals").getInteger("networkIps"));
  }

  @Test
  void similarCasesFindTheFraudCaseNextDoor() {
    JsonObject r = call("similar_cases", new JsonObject().put("sellerId", "S-2"));
    JsonObject first = item(r, 0);
    assertEquals("C-1", first.getString("id"));
    assertEquals("fraud", first.getString("outcome"));
    assertEquals(3, first.getInteger("hops"), "S-2 - bank/email - S-1 - C-1");
    assertEquals(1, r.getJsonObject("signals").getInteger("nearbyFraudCases"));
  }

  @Test
  void schemasRejectBadParameters() {
    rejected("investigate", new JsonObject().put("entity", "S-1").put("maxHops", 4));
    rejected("investigate", new JsonObject().put("entity", "S-1").put("minWeight", 0.5));
    rejected("investigate", new JsonObject());
    rejected("graph_connections", new JsonObject().put("id", "S-1").put("depth", 2));
    rejected("find_rings", new JsonObject().put("id", "S-1").put("maxLength", 2));
    rejected("email_risk", new JsonObject());
    rejected("ip_risk", new JsonObject().put("asOf", "yesterday").put("ip", "10.0.0.1"));
    rejected("similar_cases", new JsonObject().put("sellerId", "S 1"));
    // and the service refuses what the schema cannot know: an unknown entity is 404, not an empty answer
    EvidenceItem unknown = await(tools.call(0, "risk_propagation", new JsonObject().put("id", "S-404")));
    assertFalse(unknown.success());
  }

  @Test
  void deletingARecordRemovesItsEdges() {
    await(vertx.eventBus().request(Addresses.GRAPH_RECORDS_APPLY, new JsonObject().put("change", "upsert")
        .put("records", GraphWorld.stored(List.of(new JsonObject().put("kind", "seller").put("id", "S-9")
            .put("createdAt", "2025-05-01T00:00:00Z").put("legalName", "Nine").put("country", "DE")
            .put("deviceIds", new JsonArray().add("d-9")))))));
    JsonObject before = await(vertx.eventBus().<JsonObject>request(Addresses.GRAPH_ENTITY_GET,
        new JsonObject().put("id", "device:d-9"))).body();
    assertEquals(1, before.getInteger("degree"));
    await(vertx.eventBus().request(Addresses.GRAPH_RECORDS_APPLY, new JsonObject().put("change", "delete")
        .put("records", new JsonArray().add(new JsonObject().put("kind", "seller").put("id", "S-9")))));
    Throwable gone = assertThrowsFuture(vertx.eventBus().request(Addresses.GRAPH_ENTITY_GET,
        new JsonObject().put("id", "device:d-9")));
    assertNotEquals(null, gone);
  }

  private static Throwable assertThrowsFuture(io.vertx.core.Future<?> f) {
    try {
      await(f);
    } catch (RuntimeException e) {
      return e;
    }
    throw new AssertionError("expected a failure");
  }
}
