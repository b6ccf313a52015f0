package dev.argus.citations;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The validator over a hand-built graph (every weight 1.0 unless said otherwise, so the confidence is the depth
 * factor alone): S-1 and S-2 share device d1, S-2 and S-3 share payout account b1, S-2 uses email e2, S-3 uses
 * phone p3, buyer B-1 only shares an IP address with S-1.
 */
class CitationValidatorTest {

  static CitationRules rules;
  Vertx vertx;
  HandBuiltGraph graph;

  @BeforeAll
  static void load() {
    rules = CitationRules.load(Path.of("conf/citations/rules.json"));
  }

  @BeforeEach
  void setUp() {
    vertx = Vertx.vertx();
    graph = new HandBuiltGraph()
        .entity("S-1", "seller").entity("S-2", "seller").entity("S-3", "seller").entity("B-1", "buyer")
        .entity("device:d1", "device").entity("bank:b1", "bank_account").entity("email:e2@x.com", "email")
        .entity("phone:+4915100000003", "phone").entity("ip:10.0.0.1", "ip")
        .edge("USES_DEVICE", "S-1", "device:d1", 1.0).edge("USES_DEVICE", "S-2", "device:d1", 1.0)
        .edge("PAYS_OUT_TO", "S-2", "bank:b1", 1.0).edge("PAYS_OUT_TO", "S-3", "bank:b1", 1.0)
        .edge("USES_EMAIL", "S-2", "email:e2@x.com", 1.0).edge("USES_PHONE", "S-3", "phone:+4915100000003", 1.0)
        .edge("LOGGED_IN_FROM", "S-1", "ip:10.0.0.1", 1.0).edge("LOGGED_IN_FROM", "B-1", "ip:10.0.0.1", 1.0);
  }

  @AfterEach
  void tearDown() {
    await(vertx.close());
  }

  CitationValidator validator(GraphLookup g) {
    return new CitationValidator(vertx, g, rules, 2_000);
  }

  List<CitationResult> validate(GraphLookup g, JsonObject body) {
    return await(validator(g).validate(CitationRequest.fromJson(body, 200, 1000)));
  }

  CitationResult one(String citation, JsonObject claim) {
    JsonObject item = new JsonObject().put("citation", citation);
    if (claim != null) {
      item.put("claim", claim);
    }
    return validate(graph, new JsonObject().put("citations", new JsonArray().add(item))).get(0);
  }

  static JsonObject claim(String from, String to, String relation) {
    JsonObject c = new JsonObject().put("to", to);
    if (from != null) {
      c.put("from", from);
    }
    return relation == null ? c : c.put("relation", relation);
  }

  @Test
  void anExistingEntityOfTheCitedTypeIsValid() {
    CitationResult r = one("[entity:seller:S-1]", null);
    // min(1.0, 1.0) x (1 - 0.1 x 0) = 1.0
    assertEquals(CitationStatus.VALID, r.status());
    assertEquals(1.0, r.confidence());
    assertEquals(0, r.depth());
    assertNull(r.reason());
    // a bare identifier value maps to the graph id
    assertEquals(CitationStatus.VALID, one("[entity:device:d1]", null).status());
    assertEquals(CitationStatus.VALID, one("[entity:device:device:d1]", null).status());
  }

  @Test
  void aMissingEntityIsExcluded() {
    CitationResult r = one("[entity:seller:S-404]", null);
    assertEquals(CitationStatus.EXCLUDED, r.status());
    assertEquals(0.0, r.confidence());
    assertEquals("entity S-404 not found in the graph", r.reason());
  }

  @Test
  void theWrongTypeIsExcluded() {
    CitationResult r = one("[entity:seller:B-1]", null);
    assertEquals(CitationStatus.EXCLUDED, r.status());
    assertEquals("entity B-1 is a buyer, not a seller", r.reason());
  }

  @Test
  void malformedCitationsAreExcludedWithTheirReason() {
    CitationResult r = one("[entity:seller:S 1]", null);
    assertEquals(CitationStatus.EXCLUDED, r.status());
    assertTrue(r.reason().startsWith("malformed citation: "), r.reason());
    assertEquals(0, graph.calls.get(), "a malformed citation never reaches the graph");
  }

  @Test
  void aStoredRelationCountsOneAtDepthZero() {
    CitationResult r = one("[rel:rel-S-1-device:d1]", null);
    assertEquals(CitationStatus.VALID, r.status());
    assertEquals(1.0, r.confidence());
    assertEquals("USES_DEVICE", r.relation());
    // with a matching claim, in either direction
    assertEquals(CitationStatus.VALID, one("[rel:rel-S-1-device:d1]", claim("device:d1", "S-1", null)).status());
    // with a claim it does not join
    CitationResult wrong = one("[rel:rel-S-1-device:d1]", claim("S-2", "device:d1", null));
    assertEquals(CitationStatus.EXCLUDED, wrong.status());
    assertTrue(wrong.reason().contains("does not join"), wrong.reason());
  }

  @Test
  void aMissingRelationWithoutAClaimIsExcluded() {
    CitationResult r = one("[rel:0123456789abcdef0123]", null);
    assertEquals(CitationStatus.EXCLUDED, r.status());
    assertTrue(r.reason().contains("not found"), r.reason());
  }

  @Test
  void aMissingRelationIsInferredFromItsClaimWithTheTrace() {
    CitationResult r = one("[rel:0123456789abcdef0123]", claim("S-1", "S-2", "LINKED_ACCOUNTS"));
    // same device: 2 edges; min(1.0, 1.0) x (1 - 0.1 x 2) = 0.8
    assertEquals(CitationStatus.VALID, r.status());
    assertEquals(0.8, r.confidence());
    assertEquals(2, r.depth());
    assertEquals("LINKED_ACCOUNTS", r.relation());
    assertTrue(r.reasoning().stream().anyMatch(s -> "same_device".equals(s.rule())
        && s.ids().containsAll(List.of("S-1", "device:d1", "S-2"))), r.reasoning().toString());
  }

  @Test
  void confidenceOnTheGraphAtEachDepth() {
    // depth 0: S-1 uses d1 directly: 1.0 x 1.0 = 1.0
    assertConfidence(one("[entity:seller:S-1]", claim(null, "device:d1", null)), 0, 1.0, CitationStatus.VALID);
    // depth 1: only in the pure model (a one-edge path is the stored relation itself): see ConfidenceTest
    // depth 2: S-1 ~device~ S-2: 1.0 x 0.8 = 0.8
    assertConfidence(one("[entity:seller:S-1]", claim(null, "S-2", "LINKED_ACCOUNTS")), 2, 0.8, CitationStatus.VALID);
    // depth 3: S-1 ~device~ S-2 -uses-> e2: 1.0 x 0.7 = 0.7
    assertConfidence(one("[entity:seller:S-1]", claim(null, "email:e2@x.com", "LINKED")), 3, 0.7,
        CitationStatus.VALID);
    // depth 4: S-1 ~device~ S-2 ~payout~ S-3 (transitive, mixed: LINKED): 1.0 x 0.6 = 0.6
    assertConfidence(one("[entity:seller:S-1]", claim(null, "S-3", "LINKED")), 4, 0.6, CitationStatus.VALID);
    // depth 5: ... S-3 -uses-> p3: 1.0 x 0.5 = 0.5, exactly valid
    assertConfidence(one("[entity:seller:S-1]", claim(null, "phone:+4915100000003", null)), 5, 0.5,
        CitationStatus.VALID);
  }

  @Test
  void thresholdsOnTheGraph() {
    JsonObject succeeded = new JsonObject().put("index", 0).put("tool", "graph_connections").put("success", true)
        .put("data", new JsonObject().put("items", new JsonArray().add(new JsonObject().put("kind", "path"))));
    JsonObject failed = new JsonObject().put("index", 1).put("tool", "graph_connections").put("success", false)
        .put("error", "timeout");
    JsonArray evidence = new JsonArray().add(succeeded).add(failed);
    List<CitationResult> r = validate(graph, new JsonObject().put("evidence", evidence).put("citations", new JsonArray()
        // a succeeded tool's claim at depth 5: min(0.9, 1.0) x 0.5 = 0.45 -> flagged
        .add(new JsonObject().put("citation", "[source:graph_connections:0]")
            .put("claim", claim("S-1", "phone:+4915100000003", null)))
        // a failed tool's claim at depth 0: min(0.3, 1.0) x 1.0 = 0.3 -> flagged (not below 0.3)
        .add(new JsonObject().put("citation", "[source:graph_connections:1]").put("claim", claim("S-1", "device:d1",
            null)))
        // a failed tool's claim at depth 2: min(0.3, 1.0) x 0.8 = 0.24 -> excluded
        .add(new JsonObject().put("citation", "[source:graph_connections:1]").put("claim", claim("S-1", "S-2",
            null)))));
    assertConfidence(r.get(0), 5, 0.45, CitationStatus.FLAGGED);
    assertEquals("confidence 0.45 below 0.5", r.get(0).reason());
    assertConfidence(r.get(1), 0, 0.3, CitationStatus.FLAGGED);
    assertConfidence(r.get(2), 2, 0.24, CitationStatus.EXCLUDED);
    assertEquals("confidence 0.24 below 0.3", r.get(2).reason());
  }

  @Test
  void edgeWeightsBoundTheInferredRelation() {
    // a 5-edge chain whose weakest edge weighs 0.6: min(1.0, 0.6) x 0.5 = 0.30 -> flagged, on the boundary
    HandBuiltGraph weighted = new HandBuiltGraph()
        .entity("S-1", "seller").entity("S-2", "seller").entity("S-3", "seller").entity("device:d1", "device")
        .entity("bank:b1", "bank_account").entity("email:e3@x.com", "email")
        .edge("USES_DEVICE", "S-1", "device:d1", 0.9).edge("USES_DEVICE", "S-2", "device:d1", 0.9)
        .edge("PAYS_OUT_TO", "S-2", "bank:b1", 1.0).edge("PAYS_OUT_TO", "S-3", "bank:b1", 0.6)
        .edge("USES_EMAIL", "S-3", "email:e3@x.com", 0.9);
    JsonObject body = new JsonObject().put("citations", new JsonArray()
        .add(new JsonObject().put("citation", "[entity:seller:S-1]").put("claim", claim(null, "email:e3@x.com", null)))
        // the same chain without its last edge: 4 edges, min(1.0, 0.6) x 0.6 = 0.36 -> flagged
        .add(new JsonObject().put("citation", "[entity:seller:S-1]").put("claim", claim(null, "S-3", null)))
        // only the shared device: min(1.0, 0.9) x 0.8 = 0.72 -> valid
        .add(new JsonObject().put("citation", "[entity:seller:S-1]").put("claim", claim(null, "S-2", null))));
    List<CitationResult> r = validate(weighted, body);
    assertConfidence(r.get(0), 5, 0.3, CitationStatus.FLAGGED);
    assertEquals(0.6, r.get(0).relationConfidence());
    assertConfidence(r.get(1), 4, 0.36, CitationStatus.FLAGGED);
    assertConfidence(r.get(2), 2, 0.72, CitationStatus.VALID);
  }

  @Test
  void claimsNoRuleSupportsAreExcluded() {
    // S-1 and B-1 only share an IP address: no rule
    CitationResult ip = one("[entity:seller:S-1]", claim(null, "B-1", null));
    assertEquals(CitationStatus.EXCLUDED, ip.status());
    assertTrue(ip.reason().startsWith("no inference rule covers"), ip.reason());
    // S-1 and S-2 share a device, which does not make them the same controller
    CitationResult controller = one("[entity:seller:S-1]", claim(null, "S-2", "SAME_CONTROLLER"));
    assertEquals(CitationStatus.EXCLUDED, controller.status());
    assertEquals("inferred LINKED_ACCOUNTS does not support the claimed SAME_CONTROLLER", controller.reason());
    // S-2 and S-3 share the payout account: same controller at depth 2 (1.0 x 0.8 = 0.8)
    assertConfidence(one("[entity:seller:S-2]", claim(null, "S-3", "SAME_CONTROLLER")), 2, 0.8, CitationStatus.VALID);
    // a claim on a missing entity
    assertEquals("entity S-9 not found in the graph", one("[entity:seller:S-1]", claim(null, "S-9", null)).reason());
    // no path at all
    graph.entity("S-8", "seller");
    assertTrue(one("[entity:seller:S-1]", claim(null, "S-8", null)).reason().startsWith("no path of at most 5 edges"));
  }

  @Test
  void aShortestPathNoRuleCoversIsRetriedOverTheRulesHeavierEdges() {
    // S-1 and S-2 share an IP (two 0.7 edges: the shortest path, no rule), and are also linked through
    // S-1 ~device(0.9)~ S-5 ~payout(1.0)~ S-2 (four edges)
    HandBuiltGraph g = new HandBuiltGraph().entity("S-1", "seller").entity("S-2", "seller").entity("S-5", "seller")
        .entity("ip:10.0.0.1", "ip").entity("device:d1", "device").entity("bank:b1", "bank_account")
        .edge("LOGGED_IN_FROM", "S-1", "ip:10.0.0.1", 0.7).edge("LOGGED_IN_FROM", "S-2", "ip:10.0.0.1", 0.7)
        .edge("USES_DEVICE", "S-1", "device:d1", 0.9).edge("USES_DEVICE", "S-5", "device:d1", 0.9)
        .edge("PAYS_OUT_TO", "S-5", "bank:b1", 1.0).edge("PAYS_OUT_TO", "S-2", "bank:b1", 1.0);
    CitationResult r = validate(g, new JsonObject().put("citations", new JsonArray().add(new JsonObject()
        .put("citation", "[entity:seller:S-1]").put("claim", claim(null, "S-2", null))))).get(0);
    // min(1.0, 0.9) x (1 - 0.1 x 4) = 0.54
    assertConfidence(r, 4, 0.54, CitationStatus.VALID);
    assertEquals("LINKED", r.relation());
  }

  @Test
  void sourceCitationsTakeTheirToolsBaseConfidence() {
    JsonArray evidence = new JsonArray()
        .add(new JsonObject().put("index", 0).put("tool", "seller_profile").put("success", true)
            .put("data", new JsonObject().put("items", new JsonArray().add(new JsonObject().put("kind", "signal")))))
        .add(new JsonObject().put("index", 1).put("tool", "ip_risk").put("success", false).put("error", "down"))
        .add(new JsonObject().put("index", 2).put("tool", "find_rings").put("success", true)
            .put("data", new JsonObject().put("items", new JsonArray())));
    List<CitationResult> r = validate(graph, new JsonObject().put("evidence", evidence).put("citations", new JsonArray()
        .add("[source:seller_profile:0]").add("[source:ip_risk:1]").add("[source:find_rings:2]")
        .add("[source:find_rings:7]").add("[source:ip_risk:0]")));
    // succeeded with findings: 0.9 x 1.0 = 0.9
    assertConfidence(r.get(0), 0, 0.9, CitationStatus.VALID);
    // failed: 0.3 -> flagged
    assertConfidence(r.get(1), 0, 0.3, CitationStatus.FLAGGED);
    assertEquals(0.3, r.get(1).entityConfidence());
    // nothing found: 0.1 -> excluded
    assertConfidence(r.get(2), 0, 0.1, CitationStatus.EXCLUDED);
    assertEquals("no evidence item 7 among the 3 supplied", r.get(3).reason());
    assertEquals("evidence item 0 is from tool seller_profile, not ip_risk", r.get(4).reason());
  }

  @Test
  void citationsAreValidatedInParallelInRequestOrder() {
    HandBuiltGraph slow = new HandBuiltGraph().entity("S-1", "seller").entity("S-2", "seller")
        .entity("S-3", "seller").delayed(vertx, 150);
    JsonArray list = new JsonArray().add("[entity:seller:S-3]").add("[entity:seller:S-1]").add("[entity:seller:S-2]")
        .add("[entity:buyer:S-1]");
    List<CitationResult> r = validate(slow, new JsonObject().put("citations", list));
    assertEquals(List.of("[entity:seller:S-3]", "[entity:seller:S-1]", "[entity:seller:S-2]", "[entity:buyer:S-1]"),
        r.stream().map(CitationResult::citation).toList());
    assertEquals(CitationStatus.EXCLUDED, r.get(3).status());
    // all four lookups were in flight at once
    assertEquals(4, slow.peakInFlight.get());
  }

  @Test
  void aCitationTheGraphDoesNotAnswerTimesOutAlone() {
    HandBuiltGraph silent = new HandBuiltGraph().silent();
    CitationValidator v = new CitationValidator(vertx, silent, rules, 200);
    JsonArray evidence = new JsonArray().add(new JsonObject().put("index", 0).put("tool", "seller_profile")
        .put("success", true).put("data", new JsonObject().put("items", new JsonArray().add(1))));
    List<CitationResult> r = await(v.validate(CitationRequest.fromJson(new JsonObject().put("evidence", evidence)
        .put("citations", new JsonArray().add("[entity:seller:S-1]").add("[source:seller_profile:0]")), 10, 10)));
    assertEquals(CitationStatus.EXCLUDED, r.get(0).status());
    assertEquals("validation timed out after 200 ms", r.get(0).reason());
    assertEquals(CitationStatus.VALID, r.get(1).status());
  }

  static void assertConfidence(CitationResult r, int depth, double confidence, CitationStatus status) {
    assertEquals(confidence, r.confidence(), 0.0, r.citation() + ": " + r.reason() + " " + r.reasoning());
    assertEquals(depth, r.depth(), r.citation());
    assertEquals(status, r.status(), r.citation());
  }
}
