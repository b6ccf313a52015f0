package dev.argus.citations;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each inference rule of the shipped rule set, transitivity, terminal hops and what no rule covers. */
class PathInferenceTest {

  static CitationRules rules;

  @BeforeAll
  static void load() {
    rules = CitationRules.load(Path.of("conf/citations/rules.json"));
  }

  /** Builds a path from alternating node ids and edge types: ("S-1", "USES_DEVICE", "device:d1", ...). */
  static GraphPath path(double weight, String... parts) {
    List<String> nodes = new ArrayList<>();
    List<GraphEdge> edges = new ArrayList<>();
    for (int i = 0; i < parts.length; i += 2) {
      nodes.add(parts[i]);
      if (i + 2 < parts.length) {
        edges.add(new GraphEdge("rel:" + parts[i] + "-" + parts[i + 2], parts[i + 1], parts[i], parts[i + 2], weight));
      }
    }
    return new GraphPath(nodes, edges);
  }

  static Map<String, String> types(GraphPath p) {
    Map<String, String> t = new HashMap<>();
    for (String n : p.nodes()) {
      int colon = n.indexOf(':');
      String prefix = colon < 0 ? n.substring(0, 1) : n.substring(0, colon);
      t.put(n, switch (prefix) {
        case "S" -> "seller";
        case "B" -> "buyer";
        case "bank" -> "bank_account";
        default -> prefix;
      });
    }
    return t;
  }

  static PathInference.Outcome explain(GraphPath p, String claimed) {
    return PathInference.explain(rules, p, types(p), claimed);
  }

  @Test
  void sameDeviceMeansLinkedAccounts() {
    GraphPath p = path(1.0, "S-1", "USES_DEVICE", "device:d1", "USES_DEVICE", "S-2");
    PathInference.Outcome o = explain(p, "LINKED_ACCOUNTS");
    assertTrue(o.supported(), o.reason());
    assertEquals("LINKED_ACCOUNTS", o.relation());
    assertEquals(2, o.depth());
    assertEquals(1.0, o.relationConfidence());
    assertEquals("same_device", o.steps().get(0).rule());
    // LINKED_ACCOUNTS implies LINKED ...
    assertTrue(explain(p, "LINKED").supported());
    // ... but not SAME_CONTROLLER
    assertFalse(explain(p, "SAME_CONTROLLER").supported());
  }

  @Test
  void samePayoutAccountMeansSameController() {
    GraphPath p = path(0.8, "S-1", "PAYS_OUT_TO", "bank:fp9", "PAYS_OUT_TO", "S-7");
    PathInference.Outcome o = explain(p, "SAME_CONTROLLER");
    assertTrue(o.supported(), o.reason());
    assertEquals("same_payout_account", o.steps().get(0).rule());
    // the weakest edge weight is the relation's confidence
    assertEquals(0.8, o.relationConfidence());
    // SAME_CONTROLLER implies LINKED_ACCOUNTS and LINKED
    assertTrue(explain(p, "LINKED_ACCOUNTS").supported());
    assertTrue(explain(p, null).supported());
  }

  @Test
  void sameEmailPhoneAndCardMeanLinked() {
    for (String[] via : new String[][] {{"USES_EMAIL", "email:a@x.com", "same_email"},
        {"USES_PHONE", "phone:+4915100000001", "same_phone"}, {"PAYS_WITH", "card:c1", "same_card"}}) {
      GraphPath p = path(1.0, "B-1", via[0], via[1], via[0], "S-2");
      PathInference.Outcome o = explain(p, "LINKED");
      assertTrue(o.supported(), o.reason());
      assertEquals("LINKED", o.relation());
      assertEquals(via[2], o.steps().get(0).rule());
      assertFalse(explain(p, "LINKED_ACCOUNTS").supported(), "LINKED does not imply LINKED_ACCOUNTS");
    }
  }

  @Test
  void transitiveChainsOfTheSameRelationKeepIt() {
    GraphPath p = path(1.0, "S-1", "USES_DEVICE", "device:d1", "USES_DEVICE", "S-2", "USES_DEVICE", "device:d2",
        "USES_DEVICE", "S-3");
    PathInference.Outcome o = explain(p, "LINKED_ACCOUNTS");
    assertTrue(o.supported(), o.reason());
    assertEquals(4, o.depth());
    assertEquals("transitive", o.steps().get(o.steps().size() - 1).kind());
  }

  @Test
  void mixedChainsYieldLinked() {
    GraphPath p = path(0.9, "S-1", "USES_DEVICE", "device:d1", "USES_DEVICE", "S-2", "PAYS_OUT_TO", "bank:b",
        "PAYS_OUT_TO", "S-3");
    PathInference.Outcome o = explain(p, null);
    assertTrue(o.supported(), o.reason());
    assertEquals("LINKED", o.relation());
    assertEquals(4, o.depth());
    assertEquals(0.9, o.relationConfidence());
    assertFalse(explain(p, "SAME_CONTROLLER").supported());
  }

  @Test
  void aTerminalStoredEdgeReachesAnIdentifier() {
    // S-1 and S-2 share a device; S-2 uses email e: S-1 is linked to e at depth 3
    GraphPath p = path(1.0, "S-1", "USES_DEVICE", "device:d1", "USES_DEVICE", "S-2", "USES_EMAIL", "email:e@x.com");
    PathInference.Outcome o = explain(p, "LINKED");
    assertTrue(o.supported(), o.reason());
    assertEquals(3, o.depth());
    // the same path read from the identifier's end
    GraphPath reversed = path(1.0, "email:e@x.com", "USES_EMAIL", "S-2", "USES_DEVICE", "device:d1", "USES_DEVICE",
        "S-1");
    assertTrue(explain(reversed, "LINKED").supported());
    assertEquals(3, explain(reversed, "LINKED").depth());
  }

  @Test
  void aDirectEdgeIsTheRelationItself() {
    GraphPath p = path(0.4, "S-1", "USES_EMAIL", "email:e@x.com");
    PathInference.Outcome o = explain(p, null);
    assertTrue(o.supported());
    assertEquals(0, o.depth());
    // a stored relation counts 1.0, whatever its weight
    assertEquals(1.0, o.relationConfidence());
    assertFalse(explain(p, "SAME_CONTROLLER").supported());
  }

  @Test
  void pathsNoRuleCoversAreNotInferences() {
    // sharing an IP address is not a rule
    PathInference.Outcome ip = explain(path(1.0, "S-1", "USES_IP", "ip:10.0.0.1", "USES_IP", "S-2"), null);
    assertFalse(ip.supported());
    assertTrue(ip.reason().contains("no inference rule covers"), ip.reason());
    assertEquals("failure", ip.steps().get(ip.steps().size() - 1).kind());
    // identifier to identifier to identifier
    assertFalse(explain(path(1.0, "email:a@x.com", "AT_DOMAIN", "domain:x.com", "AT_DOMAIN", "email:b@x.com"), null)
        .supported());
    // an unknown node type
    GraphPath p = path(1.0, "S-1", "USES_DEVICE", "device:d1", "USES_DEVICE", "S-2");
    Map<String, String> t = types(p);
    t.remove("device:d1");
    assertFalse(PathInference.explain(rules, p, t, null).supported());
  }
}
