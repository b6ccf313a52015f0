package dev.argus.graph;

import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The behaviour every {@link GraphStore} (and the traversals over it) must have, against a real database of each dialect. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class GraphStoreContract {

  static final long T1 = 1_000L;
  static final long T2 = 2_000L;
  static final long T3 = 3_000L;

  protected Vertx vertx;
  protected Database db;
  protected GraphStore store;
  protected GraphQueries queries;

  protected abstract Future<Database> openDatabase(Vertx vertx);

  protected void dropDatabase() throws Exception {
  }

  @BeforeAll
  void open() {
    vertx = Vertx.vertx();
    db = await(openDatabase(vertx));
    store = GraphStores.create(db);
    queries = new GraphQueries(store);
  }

  @AfterAll
  void close() throws Exception {
    await(db.close());
    await(vertx.close());
    dropDatabase();
  }

  @BeforeEach
  void clean() {
    for (String t : List.of("graph_nodes", "graph_edges", "graph_sources", "graph_groups", "graph_group_members")) {
      await(db.pool().query("DELETE FROM " + t).execute());
    }
    store.forgetCached(); // the rows went behind the store's back
  }

  static Facts.Source rec(String id, long at) {
    return new Facts.Source(Facts.Source.RECORD, id, id, at);
  }

  static Facts.EdgeFact edge(String type, String from, String fromType, String to, String toType, Facts.Source s) {
    return new Facts.EdgeFact(type, from, fromType, to, toType, Types.weight(type), s);
  }

  /** S-1 and S-2 share bank account b1; S-2 and S-3 share device d1; S-1 also uses email e1 (two records say so). */
  void handGraph() {
    Facts f = new Facts();
    for (String s : List.of("S-1", "S-2", "S-3")) {
      f.replacing(s).node(new Facts.NodeFact(s, Types.SELLER, "Shop " + s, new JsonObject().put("country", "DE"),
          true, 0, rec(s, T1)));
    }
    f.edge(edge(Types.PAYS_OUT_TO, "S-1", Types.SELLER, "bank:fp_b1", Types.BANK_ACCOUNT, rec("S-1", T1)))
        .edge(edge(Types.PAYS_OUT_TO, "S-2", Types.SELLER, "bank:fp_b1", Types.BANK_ACCOUNT, rec("S-2", T1)))
        .edge(edge(Types.USES_DEVICE, "S-2", Types.SELLER, "device:d1", Types.DEVICE, rec("S-2", T1)))
        .edge(edge(Types.USES_DEVICE, "S-3", Types.SELLER, "device:d1", Types.DEVICE, rec("S-3", T1)))
        .edge(edge(Types.USES_EMAIL, "S-1", Types.SELLER, "email:a@x.test", Types.EMAIL, rec("S-1", T1)));
    await(store.apply(f));
    Facts p = new Facts().replacing("P-1")
        .edge(edge(Types.PAYS_OUT_TO, "S-1", Types.SELLER, "bank:fp_b1", Types.BANK_ACCOUNT, rec("P-1", T3)));
    await(store.apply(p));
  }

  String snapshot() {
    StringBuilder sb = new StringBuilder();
    for (String sql : List.of("SELECT id, type, label, search, attributes, risk, first_seen, last_seen FROM graph_nodes ORDER BY id",
        "SELECT " + SqlGraphStore.EDGE_COLS + " FROM graph_edges ORDER BY id",
        "SELECT item_kind, item_id, source_id, source_kind, origin, at, weight, risk FROM graph_sources "
            + "ORDER BY item_kind, item_id, source_id")) {
      for (Row row : await(db.pool().query(sql).execute())) {
        for (int i = 0; i < row.size(); i++) {
          Object v = row.getValue(i);
          sb.append(v instanceof JsonObject j ? j.encode() : String.valueOf(v)).append('\t');
        }
        sb.append('\n');
      }
    }
    return sb.toString();
  }

  @Test
  void factsBecomeNodesAndEdgesWithProvenance() {
    handGraph();
    GraphStore.Node s1 = await(store.node("S-1")).orElseThrow();
    assertEquals(Types.SELLER, s1.type());
    assertEquals("Shop S-1", s1.label());
    assertEquals("DE", s1.attributes().getString("country"));
    assertEquals(2, s1.degree(), "bank and e-mail");
    String payout = EntityIds.edge(Types.PAYS_OUT_TO, "S-1", "bank:fp_b1");
    GraphStore.Edge e = await(store.edge(payout, 10)).orElseThrow();
    assertEquals(1.0, e.weight());
    assertEquals(T1, e.firstSeen());
    assertEquals(T3, e.lastSeen(), "the payout record saw it later");
    assertEquals(2, e.sources());
    assertEquals(List.of("P-1", "S-1"), e.provenance().stream().map(p -> p.getString("id")).toList(), "latest first");
    GraphStore.Node bank = await(store.node("bank:fp_b1")).orElseThrow();
    assertEquals(Types.BANK_ACCOUNT, bank.type());
    assertEquals(T1, bank.firstSeen());
    assertEquals(T3, bank.lastSeen());
    assertTrue(await(store.node("nope")).isEmpty());
  }

  @Test
  void replacingARecordRemovesExactlyItsContributions() {
    handGraph();
    String payout = EntityIds.edge(Types.PAYS_OUT_TO, "S-1", "bank:fp_b1");
    // P-1 deleted: the edge stays (S-1 still says so) with its last-seen back to T1
    GraphStore.Applied a = await(store.apply(new Facts().replacing("P-1")));
    assertEquals(0, a.removedEdges());
    GraphStore.Edge e = await(store.edge(payout, 10)).orElseThrow();
    assertEquals(T1, e.lastSeen());
    assertEquals(1, e.sources());
    // S-1 re-loaded without bank account and e-mail: both edges go, the e-mail node with its last edge
    Facts s1 = new Facts().replacing("S-1").node(new Facts.NodeFact("S-1", Types.SELLER, "Shop S-1", new JsonObject(),
        true, 0, rec("S-1", T2)));
    GraphStore.Applied b = await(store.apply(s1));
    assertEquals(2, b.removedEdges());
    assertEquals(1, b.removedNodes(), "email:a@x.test");
    assertTrue(await(store.edge(payout, 10)).isEmpty());
    assertTrue(await(store.node("email:a@x.test")).isEmpty());
    assertTrue(await(store.node("bank:fp_b1")).isPresent(), "S-2 still pays out there");
    assertEquals(T2, await(store.node("S-1")).orElseThrow().firstSeen());
  }

  @Test
  void ingestThenDeleteLeavesTheGraphAsBefore() {
    handGraph();
    await(store.apply(new Facts().replacing("R-1").node(new Facts.NodeFact("S-3", Types.SELLER, "S-3", null, false,
        0.75, rec("R-1", T2)))));
    String before = snapshot();
    Facts doc = new Facts().replacing("D-1");
    Facts.Source c0 = new Facts.Source(Facts.Source.CHUNK, "D-1#0", "D-1", 9_000L);
    Facts.Source c1 = new Facts.Source(Facts.Source.CHUNK, "D-1#1", "D-1", 9_000L);
    doc.edge(edge(Types.MENTIONS, "doc:D-1", Types.DOCUMENT, "S-1", Types.SELLER, c0))
        .edge(edge(Types.MENTIONS, "doc:D-1", Types.DOCUMENT, "bank:fp_b1", Types.BANK_ACCOUNT, c1))
        .edge(edge(Types.MENTIONS, "doc:D-1", Types.DOCUMENT, "phone:+4915112345678", Types.PHONE, c1))
        .node(new Facts.NodeFact("S-3", Types.SELLER, "S-3", null, false, 1.0, c0));
    await(store.apply(doc));
    assertTrue(!snapshot().equals(before));
    assertEquals(9_000L, await(store.node("S-1")).orElseThrow().lastSeen());
    assertEquals(1.0, await(store.node("S-3")).orElseThrow().risk());
    await(store.apply(new Facts().replacing("D-1")));
    assertEquals(before, snapshot(), "deleting the document removes exactly what it added");
    assertEquals(0.75, await(store.node("S-3")).orElseThrow().risk());
  }

  @Test
  void neighbourhoodHonoursDepthFanoutAndWeight() {
    handGraph();
    Subgraph one = await(queries.neighbourhood("S-1", new GraphQueries.Bounds(1, 10, 100, 0, null)));
    assertEquals(Set.of("S-1", "bank:fp_b1", "email:a@x.test"), one.nodes().keySet());
    Subgraph three = await(queries.neighbourhood("S-1", new GraphQueries.Bounds(3, 10, 100, 0, null)));
    assertEquals(Set.of("S-1", "bank:fp_b1", "email:a@x.test", "S-2", "device:d1"), three.nodes().keySet());
    assertEquals(3, three.hops().get("device:d1"));
    assertEquals(4, three.edges().size());
    // minimum weight 0.95 keeps only the payout edges (1.0), not the e-mail (0.9) or the device (0.9)
    Subgraph heavy = await(queries.neighbourhood("S-1", new GraphQueries.Bounds(3, 10, 100, 0.95, null)));
    assertEquals(Set.of("S-1", "bank:fp_b1", "S-2"), heavy.nodes().keySet());
    // fan-out 1: only the heaviest edge of S-1 (the payout, 1.0)
    Subgraph narrow = await(queries.neighbourhood("S-1", new GraphQueries.Bounds(1, 1, 100, 0, null)));
    assertEquals(Set.of("S-1", "bank:fp_b1"), narrow.nodes().keySet());
    assertTrue(narrow.truncated());
    assertThrows(IllegalArgumentException.class, () -> await(queries.neighbourhood("S-1",
        new GraphQueries.Bounds(4, 10, 100, 0, null))));
    // as of before anything was seen, nothing is connected and S-1 itself (first seen at T1) did not exist yet
    Subgraph early = await(queries.neighbourhood("S-1", new GraphQueries.Bounds(2, 10, 100, 0, 500L)));
    assertEquals(Set.of(), early.nodes().keySet());
  }

  /**
   * Node risk as of a time comes only from the sources dated by then: S-2 gets a risk event (0.4) at T1 and, at T3, a
   * fraud case C-9 (risk 1.0 to S-2) plus another risk event (0.8). By hand: as of T2, S-2 has max(0.4) = 0.4 and C-9
   * does not exist; as of T3 and without asOf, S-2 has max(0.4, 1.0, 0.8) = 1.0 and C-9 is there. S-3 has no risk
   * source: 0 at any time. Before T1 none of them exists.
   */
  @Test
  void nodeRiskAsOfCountsOnlySourcesDatedByThen() {
    handGraph();
    await(store.apply(new Facts().replacing("R-1")
        .node(new Facts.NodeFact("S-2", Types.SELLER, "S-2", null, false, 0.4, rec("R-1", T1)))));
    await(store.apply(new Facts().replacing("C-9")
        .node(new Facts.NodeFact("C-9", Types.CASE, "case C-9 (fraud)", new JsonObject().put("outcome", "fraud"),
            true, 0.0, rec("C-9", T3)))
        .edge(edge(Types.SUBJECT_OF, "S-2", Types.SELLER, "C-9", Types.CASE, rec("C-9", T3)))
        .node(new Facts.NodeFact("S-2", Types.SELLER, "S-2", null, false, 1.0, rec("C-9", T3)))));
    await(store.apply(new Facts().replacing("R-2")
        .node(new Facts.NodeFact("S-2", Types.SELLER, "S-2", null, false, 0.8, rec("R-2", T3)))));
    List<String> ids = List.of("S-2", "S-3", "C-9");

    Map<String, GraphStore.Node> now = await(store.nodes(ids, null));
    assertEquals(Set.copyOf(ids), now.keySet());
    assertEquals(1.0, now.get("S-2").risk(), 1e-6);
    assertEquals(0.0, now.get("S-3").risk(), 1e-6);
    assertEquals(now, await(store.nodes(ids)));
    // (risk is compared with 1e-6: SQLite reads 0.4 back as 0.4000000059604645)

    Map<String, GraphStore.Node> before = await(store.nodes(ids, T2));
    assertEquals(Set.of("S-2", "S-3"), before.keySet());
    assertEquals(0.4, before.get("S-2").risk(), 1e-6);
    assertEquals(0.0, before.get("S-3").risk(), 1e-6);
    assertEquals(T1, before.get("S-2").firstSeen());
    assertEquals(T2, before.get("S-2").lastSeen());
    assertEquals("Shop S-2", before.get("S-2").label());

    Map<String, GraphStore.Node> at = await(store.nodes(ids, T3));
    assertEquals(Set.copyOf(ids), at.keySet());
    assertEquals(1.0, at.get("S-2").risk(), 1e-6);
    assertEquals(T3, at.get("S-2").lastSeen());

    assertTrue(await(store.nodes(ids, T1 - 1)).isEmpty());

    // the traversal reads node risk the same way
    Subgraph asOfT2 = await(queries.neighbourhood("S-2", new GraphQueries.Bounds(1, 10, 100, 0, T2)));
    assertEquals(0.4, asOfT2.nodes().get("S-2").risk(), 1e-6);
    assertFalse(asOfT2.nodes().containsKey("C-9"));
    Subgraph latest = await(queries.neighbourhood("S-2", new GraphQueries.Bounds(1, 10, 100, 0, null)));
    assertEquals(1.0, latest.nodes().get("S-2").risk(), 1e-6);
    assertTrue(latest.nodes().containsKey("C-9"));
  }

  @Test
  void shortestPathAndSharedIdentifiers() {
    handGraph();
    JsonObject p = await(queries.path("S-1", "S-3", new GraphQueries.Bounds(5, 10, 1000, 0, null)));
    assertTrue(p.getBoolean("found"));
    assertEquals(List.of("S-1", "bank:fp_b1", "S-2", "device:d1", "S-3"),
        p.getJsonObject("path").getJsonArray("nodes").getList());
    assertEquals(4, p.getJsonObject("path").getJsonArray("edges").size());
    JsonObject none = await(queries.path("S-1", "S-3", new GraphQueries.Bounds(3, 10, 1000, 0, null)));
    assertFalse(none.getBoolean("found"), "four hops do not fit in three");
    List<GraphQueries.Shared> shared = await(queries.sharing("S-2", new GraphQueries.Bounds(2, 10, 100, 0, null)));
    Map<String, List<String>> byId = new java.util.HashMap<>();
    shared.forEach(s -> byId.put(s.identifier(), s.others()));
    assertEquals(Map.of("bank:fp_b1", List.of("S-1"), "device:d1", List.of("S-3")), byId);
  }

  @Test
  void hubWithAHundredThousandEdgesStaysBounded() {
    Facts f = new Facts().replacing("HUB");
    Facts.Source s = rec("HUB", T1);
    for (int i = 0; i < 100_000; i++) {
      f.edge(edge(Types.LOGGED_IN_FROM, "B-" + i, Types.BUYER, "ip:10.9.9.9", Types.IP, s));
    }
    f.edge(edge(Types.LOGGED_IN_FROM, "S-9", Types.SELLER, "ip:10.9.9.9", Types.IP, s));
    await(store.apply(f), 600);
    assertEquals(100_001, await(store.node("ip:10.9.9.9")).orElseThrow().degree());
    Subgraph sub = await(queries.neighbourhood("S-9", new GraphQueries.Bounds(2, 50, 200, 0, null)));
    assertTrue(sub.truncated());
    assertEquals(52, sub.nodes().size(), "S-9, the hub, and 50 of its other users");
    Subgraph limited = await(queries.neighbourhood("ip:10.9.9.9", new GraphQueries.Bounds(1, 500, 100, 0, null)));
    assertEquals(100, limited.nodes().size());
    assertTrue(limited.truncated());
  }

  @Test
  void fuzzySearchFindsByLabelAndValue() {
    handGraph();
    await(store.apply(new Facts().replacing("S-7").node(new Facts.NodeFact("S-7", Types.SELLER, "Marlo Trading GmbH",
        new JsonObject(), true, 0, rec("S-7", T1)))));
    List<GraphStore.Node> hits = await(store.search("marlo tradng", null, 5));
    assertEquals("S-7", hits.get(0).id());
    assertEquals("email:a@x.test", await(store.search("a@x.test", Types.EMAIL, 5)).get(0).id());
  }

  @Test
  void groupsAreStoredWithTheirMembers() {
    GraphStore.Group g = new GraphStore.Group("ring-1", "ring", List.of("S-1", "S-2"), 0.5, T1, T2, 10, 20);
    await(store.saveGroup(g));
    assertEquals(List.of(g), await(store.groupsTouching("ring", List.of("S-2", "S-9"))));
    assertTrue(await(store.groupsTouching("community", List.of("S-2"))).isEmpty());
    await(store.saveGroup(new GraphStore.Group("ring-1", "ring", List.of("S-3"), 0.1, T1, T3, 10, 30)));
    assertTrue(await(store.groupsTouching("ring", List.of("S-2"))).isEmpty());
    assertEquals(List.of("S-3"), await(store.group("ring-1")).orElseThrow().members());
  }

  /**
   * The in-memory cache answers traversals exactly as the store does, and sees every write. Hub ip:H has 40 buyers
   * logging in from it (LOGGED_IN_FROM, 0.7, buyer i at time 1000 + i), one IP-network edge (IN_NETWORK, 0.4) and five
   * sellers paying with it (PAYS_WITH, 0.9, at T3). A reference store without a cache reads the same database; every
   * bound combination, asked in an order that first caches short prefixes and then needs longer ones, with weight and
   * time filters, must give the same edges in the same order.
   */
  @Test
  void cachedTraversalsAnswerAsTheStoreDoes() {
    Facts f = new Facts().replacing("HUB2");
    for (int i = 0; i < 40; i++) {
      f.edge(edge(Types.LOGGED_IN_FROM, "B-" + i, Types.BUYER, "ip:H", Types.IP, rec("HUB2", 1_000L + i)));
    }
    f.edge(edge(Types.IN_NETWORK, "ip:H", Types.IP, "ipnet:10.0.0.0/24", Types.IPNET, rec("HUB2", T1)));
    await(store.apply(f));
    Facts g = new Facts().replacing("HEAVY");
    for (int i = 0; i < 5; i++) {
      g.edge(edge(Types.PAYS_WITH, "S-" + i, Types.SELLER, "ip:H", Types.IP, rec("HEAVY", T3)));
    }
    await(store.apply(g));
    GraphStore reference = GraphStores.create(db, 0);
    List<String> ids = List.of("ip:H", "B-3", "S-1", "ipnet:10.0.0.0/24", "nope");
    for (int perNode : new int[] {2, 10, 60}) {
      for (double minWeight : new double[] {0.0, 0.6, 0.8}) {
        for (Long asOf : new Long[] {null, 1_020L, T3}) {
          assertEquals(edgeIds(await(reference.incident(ids, perNode, minWeight, asOf))),
              edgeIds(await(store.incident(ids, perNode, minWeight, asOf))),
              "perNode " + perNode + ", minWeight " + minWeight + ", asOf " + asOf);
        }
      }
    }
    long[] stats = ((SqlGraphStore) store).cache.stats();
    assertTrue(stats[0] > 0, "the cache answered some: " + java.util.Arrays.toString(stats));
    // the heaviest edges of ip:H are the five at 0.9, then the 0.7 ones
    List<GraphStore.Edge> top = await(store.incident(List.of("ip:H"), 6, 0.0, null)).get("ip:H");
    assertEquals(7, top.size(), "perNode + 1 tells there are more");
    assertEquals(0.9, top.get(4).weight(), 1e-6);
    assertEquals(0.7, top.get(5).weight(), 1e-6);
    // a write: a heavier edge appears at once in the cached answer, and goes when its record goes
    await(store.apply(new Facts().replacing("NEW")
        .edge(edge(Types.PAYS_OUT_TO, "S-9", Types.SELLER, "ip:H", Types.IP, rec("NEW", T3)))));
    List<GraphStore.Edge> after = await(store.incident(List.of("ip:H"), 6, 0.0, null)).get("ip:H");
    assertEquals("S-9", after.get(0).other("ip:H"));
    assertEquals(edgeIds(await(reference.incident(ids, 10, 0.0, null))), edgeIds(await(store.incident(ids, 10, 0.0,
        null))));
    await(store.apply(new Facts().replacing("NEW")));
    assertEquals(edgeIds(Map.of("ip:H", top)), edgeIds(await(store.incident(List.of("ip:H"), 6, 0.0, null))));
    // node rows: a risk event shows at once
    assertEquals(0.0, await(store.nodes(List.of("B-3"))).get("B-3").risk());
    await(store.apply(new Facts().replacing("R-3")
        .node(new Facts.NodeFact("B-3", Types.BUYER, "B-3", null, false, 0.75, rec("R-3", T3)))));
    assertEquals(0.75, await(store.nodes(List.of("B-3"))).get("B-3").risk(), 1e-6);
    assertEquals(await(reference.nodes(ids)), await(store.nodes(ids)));
  }

  /**
   * Rows the store already holds are not written again (WrittenSpans), yet a row removed with its last source is written
   * again when a later change brings it back: A and B both say S-5 uses device d5 at T1 (B's upsert changes nothing);
   * deleting A keeps the edge (B still says so), deleting B removes it and both nodes, and C saying it again at T1
   * brings all three back, as in a store that never skipped anything.
   */
  @Test
  void rowsSkippedAsUnchangedComeBackAfterRemoval() {
    String id = EntityIds.edge(Types.USES_DEVICE, "S-5", "device:d5");
    for (String r : List.of("A", "B")) {
      await(store.apply(new Facts().replacing(r)
          .edge(edge(Types.USES_DEVICE, "S-5", Types.SELLER, "device:d5", Types.DEVICE, rec(r, T1)))));
    }
    assertEquals(2, await(store.edge(id, 10)).orElseThrow().sources());
    await(store.apply(new Facts().replacing("A")));
    assertEquals(1, await(store.edge(id, 10)).orElseThrow().sources());
    await(store.apply(new Facts().replacing("B")));
    assertTrue(await(store.edge(id, 10)).isEmpty());
    assertTrue(await(store.node("device:d5")).isEmpty());
    await(store.apply(new Facts().replacing("C")
        .edge(edge(Types.USES_DEVICE, "S-5", Types.SELLER, "device:d5", Types.DEVICE, rec("C", T1)))));
    assertEquals(T1, await(store.edge(id, 10)).orElseThrow().firstSeen());
    assertEquals(1, await(store.node("device:d5")).orElseThrow().degree());
    assertEquals(T1, await(store.node("S-5")).orElseThrow().lastSeen());
    // a later sighting moves last seen (not covered by what was written before)
    await(store.apply(new Facts().replacing("D")
        .edge(edge(Types.USES_DEVICE, "S-5", Types.SELLER, "device:d5", Types.DEVICE, rec("D", T3)))));
    assertEquals(T3, await(store.edge(id, 10)).orElseThrow().lastSeen());
    assertEquals(T3, await(store.node("device:d5")).orElseThrow().lastSeen());
  }

  private static Map<String, List<String>> edgeIds(Map<String, List<GraphStore.Edge>> byNode) {
    Map<String, List<String>> out = new java.util.TreeMap<>();
    byNode.forEach((id, list) -> out.put(id, list.stream().map(GraphStore.Edge::id).toList()));
    return out;
  }
}
