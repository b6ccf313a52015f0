package dev.argus.graph;

import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.List;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link IdentifierSharing} on a real graph store of each dialect, on a graph built by hand: S-1 and S-2 (opened on
 * day 0) pay out to bank b1; S-2 and S-3 (opened on day 30) use device d1; S-4 (opened on day 2) starts paying out to
 * b1 on day 40; S-1 alone uses e-mail e1; case C-1 names S-1 and S-2 (a case is not a shared identifier).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class IdentifierSharingContract {

  static final long DAY = 86_400_000L;
  protected Vertx vertx;
  protected Database db;
  protected IdentifierSharing sharing;

  protected abstract Future<Database> openDatabase(Vertx vertx);

  protected void dropDatabase() throws Exception {
  }

  static Facts.Source rec(String id, long at) {
    return new Facts.Source(Facts.Source.RECORD, id, id, at);
  }

  static Facts.EdgeFact edge(String type, String from, String fromType, String to, String toType, Facts.Source s) {
    return new Facts.EdgeFact(type, from, fromType, to, toType, Types.weight(type), s);
  }

  @BeforeAll
  void open() {
    vertx = Vertx.vertx();
    db = await(openDatabase(vertx));
    GraphStore store = GraphStores.create(db);
    sharing = new IdentifierSharing(store, 50);
    Facts f = new Facts();
    long[] opened = {0, 0, 30 * DAY, 2 * DAY};
    for (int i = 0; i < 4; i++) {
      String s = "S-" + (i + 1);
      f.replacing(s).node(new Facts.NodeFact(s, Types.SELLER, "Shop " + s, new JsonObject(), true, 0, rec(s, opened[i])));
    }
    f.edge(edge(Types.PAYS_OUT_TO, "S-1", Types.SELLER, "bank:fp_b1", Types.BANK_ACCOUNT, rec("S-1", 0)))
        .edge(edge(Types.PAYS_OUT_TO, "S-2", Types.SELLER, "bank:fp_b1", Types.BANK_ACCOUNT, rec("S-2", 0)))
        .edge(edge(Types.USES_DEVICE, "S-2", Types.SELLER, "device:d1", Types.DEVICE, rec("S-2", 0)))
        .edge(edge(Types.USES_DEVICE, "S-3", Types.SELLER, "device:d1", Types.DEVICE, rec("S-3", 30 * DAY)))
        .edge(edge(Types.USES_EMAIL, "S-1", Types.SELLER, "email:e1@x.test", Types.EMAIL, rec("S-1", 0)));
    await(store.apply(f));
    await(store.apply(new Facts().replacing("P-4")
        .edge(edge(Types.PAYS_OUT_TO, "S-4", Types.SELLER, "bank:fp_b1", Types.BANK_ACCOUNT, rec("P-4", 40 * DAY)))));
    await(store.apply(new Facts().replacing("C-1")
        .node(new Facts.NodeFact("C-1", Types.CASE, "C-1", new JsonObject(), true, 1.0, rec("C-1", DAY)))
        .edge(edge(Types.SUBJECT_OF, "S-1", Types.SELLER, "C-1", Types.CASE, rec("C-1", DAY)))
        .edge(edge(Types.SUBJECT_OF, "S-2", Types.SELLER, "C-1", Types.CASE, rec("C-1", DAY)))));
  }

  @AfterAll
  void close() throws Exception {
    await(db.close());
    await(vertx.close());
    dropDatabase();
  }

  static String at(long ms) {
    return java.time.Instant.ofEpochMilli(ms).toString();
  }

  @Test
  void asOfDayTenS1SharesOnlyItsBankAccountWithS2() {
    JsonObject r = await(sharing.of("S-1", 10 * DAY));
    JsonObject s = r.getJsonObject("signals");
    // b1 with S-2 (PAYS_OUT_TO, weight 1.0: strong); e1 shared with no one; the case is not an identifier
    assertEquals(1, s.getInteger("sharedIdentifiers"), r.encodePrettily());
    assertEquals(1, s.getInteger("linkedSubjects"));
    assertEquals(1, s.getInteger("strongSharedIdentifiers"));
    assertEquals(1, s.getInteger("sharedBankAccountSubjects"));
    // S-2 first seen on day 0 like S-1: opened together
    assertEquals(1, s.getInteger("linkedOpenedTogether"));
    JsonObject item = r.getJsonArray("items").getJsonObject(0);
    assertEquals("bank_account", item.getString("type"));
    assertEquals(List.of("S-2"), item.getJsonArray("sharedWith").getList());
    assertEquals(EntityIds.citeRelation(EntityIds.edge(Types.PAYS_OUT_TO, "S-1", "bank:fp_b1")), item.getString("cite"));
  }

  @Test
  void laterFactsCountOnlyOnceTheDecisionTimeIsAfterThem() {
    // day 45: S-4 pays out to b1 too (opened on day 2, within 7 days of S-1); S-3 is not linked to S-1
    JsonObject s = await(sharing.of("S-1", 45 * DAY)).getJsonObject("signals");
    assertEquals(2, s.getInteger("sharedBankAccountSubjects"));
    assertEquals(2, s.getInteger("linkedOpenedTogether"));
    // S-2 on day 45: b1 (S-1, S-4) and d1 (S-3, opened 30 days later: not together)
    JsonObject two = await(sharing.of("S-2", 45 * DAY)).getJsonObject("signals");
    assertEquals(2, two.getInteger("sharedIdentifiers"));
    assertEquals(3, two.getInteger("linkedSubjects"));
    assertEquals(2, two.getInteger("linkedOpenedTogether"), "S-1 (day 0) and S-4 (day 2), not S-3 (day 30)");
    // S-2 on day 10: S-3's device edge is not there yet
    assertEquals(1, await(sharing.of("S-2", 10 * DAY)).getJsonObject("signals").getInteger("sharedIdentifiers"));
  }
}
