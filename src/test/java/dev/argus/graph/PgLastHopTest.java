package dev.argus.graph;

import dev.argus.knowledge.pg.PgTestDatabase;
import dev.argus.store.Database;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PostgreSQL answers the last level of a traversal with one statement ({@link PgLastHop}) that keeps only the edges
 * and node rows the traversal keeps; SQLite walks it with {@link GraphStore#incident} and then reads the rows. The
 * same generated graph in both real stores must give the same neighbourhoods — nodes in the same order with the same
 * hop distances, the same edges in the same order, the same truncation — under bounds where the fan-out, the node
 * limit and the weight threshold each cut, with and without the in-memory cache.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PgLastHopTest {

  private Vertx vertx;
  private PgTestDatabase pg;
  private Database pgDb;
  private Database sqliteDb;

  @BeforeAll
  void open() throws Exception {
    vertx = Vertx.vertx();
    pg = PgTestDatabase.create();
    pgDb = await(Database.postgres(vertx, pg.conf()));
    sqliteDb = await(Database.sqlite(vertx, Files.createTempDirectory("argus-lasthop-").resolve("argus.db")));
    Facts world = world();
    await(GraphStores.create(pgDb, 0).apply(world));
    await(GraphStores.create(sqliteDb, 0).apply(world));
  }

  @AfterAll
  void close() {
    await(pgDb.close());
    await(sqliteDb.close());
    await(vertx.close());
    pg.close();
  }

  /**
   * 30 sellers, 120 buyers and 60 shared identifiers (devices, cards, IPs); each buyer buys from 1-8 sellers and
   * uses 1-3 identifiers, each seller 0-2, at varied times, so weights tie (one weight per relation type) and the
   * latest-first tie-break matters.
   */
  private static Facts world() {
    Random rnd = new Random(17);
    Facts f = new Facts();
    String[] idTypes = {Types.DEVICE, Types.CARD, Types.IP};
    String[] relations = {Types.USES_DEVICE, Types.PAYS_WITH, Types.LOGGED_IN_FROM};
    for (int s = 1; s <= 30; s++) {
      String id = "S-" + s;
      f.replacing(id).node(new Facts.NodeFact(id, Types.SELLER, "Shop " + s, new JsonObject().put("n", s), true, 0,
          GraphStoreContract.rec(id, 1_000L + s)));
      for (int k = rnd.nextInt(3); k > 0; k--) {
        int t = rnd.nextInt(3);
        f.edge(GraphStoreContract.edge(relations[t], id, Types.SELLER, EntityIds.of(idTypes[t], "x" + rnd.nextInt(60)),
            idTypes[t], GraphStoreContract.rec(id, 1_000L + s)));
      }
    }
    for (int b = 1; b <= 120; b++) {
      String id = "B-" + b;
      f.replacing(id).node(new Facts.NodeFact(id, Types.BUYER, "Buyer " + b, new JsonObject(), true, 0,
          GraphStoreContract.rec(id, 2_000L + b)));
      for (int k = 1 + rnd.nextInt(8); k > 0; k--) {
        String tx = "T-" + b + "-" + k;
        long at = 10_000L + rnd.nextInt(500);
        f.replacing(tx).edge(GraphStoreContract.edge(Types.BUYS_FROM, id, Types.BUYER, "S-" + (1 + rnd.nextInt(30)),
            Types.SELLER, GraphStoreContract.rec(tx, at)));
      }
      for (int k = 1 + rnd.nextInt(3); k > 0; k--) {
        int t = rnd.nextInt(3);
        f.edge(GraphStoreContract.edge(relations[t], id, Types.BUYER, EntityIds.of(idTypes[t], "x" + rnd.nextInt(60)),
            idTypes[t], GraphStoreContract.rec(id, 3_000L + rnd.nextInt(500))));
      }
    }
    return f;
  }

  /** Nodes (id:hops, in order), edges (ids, in order) and the truncation flag of a neighbourhood. */
  private static List<String> shape(Subgraph g) {
    List<String> out = new ArrayList<>();
    g.nodes().keySet().forEach(id -> out.add(id + ":" + g.hops().get(id)));
    g.edges().forEach(e -> out.add(e.id()));
    out.add("truncated=" + g.truncated());
    return out;
  }

  @Test
  void lastLevelInOneStatementKeepsWhatTheWalkKeeps() {
    GraphQueries sqlite = new GraphQueries(GraphStores.create(sqliteDb, 0));
    GraphQueries pgNoCache = new GraphQueries(GraphStores.create(pgDb, 0));
    GraphQueries pgCached = new GraphQueries(GraphStores.create(pgDb, 1_000));
    int compared = 0;
    boolean sawLimit = false;
    boolean sawWhole = false;
    for (String subject : List.of("S-1", "S-7", "S-19", "B-3", "B-77", "ip:x5", "device:x12", "nobody")) {
      for (int depth = 0; depth <= 3; depth++) {
        for (int fanout : new int[] {2, 5, 50}) {
          for (int limit : new int[] {4, 25, 500}) {
            for (double minWeight : new double[] {0, 0.7}) {
              GraphQueries.Bounds b = new GraphQueries.Bounds(depth, fanout, limit, minWeight, null);
              List<String> expected = shape(await(sqlite.neighbourhood(subject, b)));
              assertEquals(expected, shape(await(pgNoCache.neighbourhood(subject, b))), subject + " " + b);
              assertEquals(expected, shape(await(pgCached.neighbourhood(subject, b))), subject + " " + b + " cached");
              compared++;
              sawLimit |= expected.size() > 1 && limit == 4 && depth >= 2 && expected.contains("truncated=true");
              sawWhole |= depth == 3 && limit == 500 && fanout == 50 && expected.contains("truncated=false")
                  && expected.size() > 100;
            }
          }
        }
      }
    }
    // 8 subjects x 4 depths x 3 fan-outs x 3 limits x 2 weights = 576 bounds compared
    assertEquals(576, compared);
    assertTrue(sawLimit, "some bounds cut at the node limit");
    assertTrue(sawWhole, "some bounds take a large neighbourhood whole");
    assertFalse(shape(await(pgNoCache.neighbourhood("S-1", new GraphQueries.Bounds(2, 50, 500, 0, null)))).isEmpty());
  }
}
