package dev.argus.decide;

import dev.argus.common.ApiException;
import dev.argus.decide.store.DecisionQuery;
import dev.argus.decide.store.DecisionStore;
import dev.argus.decide.store.DecisionStores;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.List;
import java.util.UUID;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What every {@link DecisionStore} must do, on a real database of each dialect: append-only decisions, reviews. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class DecisionStoreContract {

  protected Vertx vertx;
  protected Database db;
  protected DecisionStore store;

  protected abstract Future<Database> openDatabase(Vertx vertx);

  protected void dropDatabase() throws Exception {
  }

  @BeforeAll
  void open() {
    vertx = Vertx.vertx();
    db = await(openDatabase(vertx));
    store = DecisionStores.create(db);
  }

  @AfterAll
  void close() throws Exception {
    await(db.close());
    await(vertx.close());
    dropDatabase();
  }

  static JsonObject decision(String subject, String outcome, String status, double confidence, long at) {
    String id = UUID.randomUUID().toString();
    return new JsonObject().put("decisionId", "dec-" + id).put("runId", "run-" + id)
        .put("profile", "seller_onboarding").put("subjectId", subject).put("outcome", outcome).put("status", status)
        .put("riskScore", 42.5).put("confidence", confidence).put("calibratedConfidence", confidence)
        .put("createdAtMs", at).put("reasons", new io.vertx.core.json.JsonArray());
  }

  @Test
  void appendedDecisionsAreReadBackAndFiltered() {
    String subject = "S-" + UUID.randomUUID();
    JsonObject a = decision(subject, "APPROVE", "FINAL", 0.9, 1_000);
    JsonObject b = decision(subject, "REVIEW", "PENDING_REVIEW", 0.4, 2_000);
    await(store.append(a));
    await(store.append(b));
    assertEquals(a, await(store.get(a.getString("decisionId"))).orElseThrow());
    List<JsonObject> all = await(store.list(new DecisionQuery(subject, null, null, null, null, null, 10)));
    assertEquals(List.of(b.getString("decisionId"), a.getString("decisionId")),
        all.stream().map(d -> d.getString("decisionId")).toList(), "newest first");
    assertEquals(1, await(store.list(new DecisionQuery(subject, "APPROVE", null, null, null, null, 10))).size());
    assertEquals(1, await(store.list(new DecisionQuery(subject, null, "PENDING_REVIEW", null, null, null, 10))).size());
    assertEquals(1, await(store.list(new DecisionQuery(subject, null, null, null, 1_500L, null, 10))).size());
    assertEquals(0, await(store.list(new DecisionQuery(subject, null, null, "transaction_investigation", null, null,
        10))).size());
  }

  @Test
  void decisionsAreAppendOnlyBelowTheApi() {
    JsonObject d = decision("S-ao", "APPROVE", "FINAL", 0.9, 3_000);
    await(store.append(d));
    String id = d.getString("decisionId");
    String p = db.dialect() == Database.Dialect.POSTGRES ? "$1" : "?";
    // straight SQL, bypassing the store: the database itself refuses
    assertThrows(RuntimeException.class, () -> await(db.pool().preparedQuery("UPDATE decisions SET outcome = 'REJECT' "
        + "WHERE decision_id = " + p).execute(Tuple.of(id))));
    assertThrows(RuntimeException.class, () -> await(db.pool().preparedQuery("DELETE FROM decisions WHERE decision_id = "
        + p).execute(Tuple.of(id))));
    assertEquals("APPROVE", await(store.get(id)).orElseThrow().getString("outcome"));
    // the same id twice is refused too (a correction is a new id)
    assertThrows(RuntimeException.class, () -> await(store.append(d)));
  }

  @Test
  void aReviewIsClaimedThenCompletedWithACorrectingDecision() {
    JsonObject d = decision("S-rev", "REVIEW", "PENDING_REVIEW", 0.3, System.currentTimeMillis());
    JsonObject review = Reviews.reviewOf(d, 60);
    await(store.appendWithReview(d, review));
    String reviewId = review.getString("reviewId");
    long now = System.currentTimeMillis();
    JsonObject claimed = await(store.claim(reviewId, "alice", now, 60_000));
    assertEquals("alice", claimed.getString("assignee"));
    ApiException taken = assertThrows(ApiException.class, () -> await(store.claim(reviewId, "bob", now + 1, 60_000)));
    assertEquals(409, taken.status());
    // once alice's claim expired, bob may claim it
    assertEquals("bob", await(store.claim(reviewId, "bob", now + 61_000, 60_000)).getString("assignee"));
    JsonObject correction = decision("S-rev", "APPROVE", "FINAL", 0.3, now + 62_000)
        .put("correctsDecisionId", d.getString("decisionId"));
    ApiException notBob = assertThrows(ApiException.class, () -> await(store.complete(reviewId, "alice", "approve",
        "fine", correction, null, now + 62_000)));
    assertEquals("claimed", notBob.code());
    JsonObject done = await(store.complete(reviewId, "bob", "approve", "documents check out", correction, null,
        now + 62_000));
    assertEquals("completed", done.getString("status"));
    assertEquals(correction.getString("decisionId"), done.getString("newDecisionId"));
    assertEquals(List.of(correction.getString("decisionId")), await(store.correctedBy(d.getString("decisionId"))));
    assertEquals("PENDING_REVIEW", await(store.get(d.getString("decisionId"))).orElseThrow().getString("status"),
        "the original is never changed");
    ApiException again = assertThrows(ApiException.class, () -> await(store.complete(reviewId, "bob", "reject", "x",
        decision("S-rev", "REJECT", "FINAL", 0.3, now), null, now + 63_000)));
    assertEquals("review_closed", again.code());
    assertTrue(await(store.reviews("completed", "age", 500)).stream()
        .anyMatch(r -> r.getString("reviewId").equals(reviewId)));
  }

  @Test
  void pendingReviewsSortByConfidenceAndSlaBreachesAreCounted() {
    long now = System.currentTimeMillis();
    JsonObject low = decision("S-sla1", "REVIEW", "PENDING_REVIEW", 0.11, now - 10 * 60_000);
    JsonObject high = decision("S-sla2", "REVIEW", "PENDING_REVIEW", 0.12, now - 1_000);
    await(store.appendWithReview(high, Reviews.reviewOf(high, 60)));
    await(store.appendWithReview(low, Reviews.reviewOf(low, 5)));  // due 5 min after creation: breached 5 min ago
    List<String> order = await(store.reviews("pending", "confidence", 500)).stream()
        .filter(r -> r.getString("subjectId").startsWith("S-sla")).map(r -> r.getString("subjectId")).toList();
    assertEquals(List.of("S-sla1", "S-sla2"), order);
    JsonObject sla = await(store.sla(now)).getJsonObject("seller_onboarding");
    assertTrue(sla.getLong("breachedOpen") >= 1, sla.encode());
  }

  @Test
  void shadowOutcomesAreKeptPerVersion() {
    JsonObject s = new JsonObject().put("shadowId", "shd-" + UUID.randomUUID()).put("version", "vX")
        .put("profile", "seller_onboarding").put("liveDecisionId", "dec-1").put("subjectId", "S-1")
        .put("liveOutcome", "APPROVE").put("outcome", "REVIEW").put("liveRiskScore", 10.0).put("riskScore", 12.0)
        .put("createdAtMs", 5L);
    await(store.appendShadow(s));
    assertEquals(List.of(s), await(store.shadow("vX", 10)));
    assertTrue(await(store.shadow("vY", 10)).isEmpty());
  }

  /** A NUL in a filter: refused by the query's check (400); past it, the store itself answers 400 on PostgreSQL, never 500. */
  @Test
  void nulInAFilterIsTheCallersError() {
    dev.argus.common.ApiException refused = org.junit.jupiter.api.Assertions.assertThrows(
        dev.argus.common.ApiException.class,
        () -> DecisionQuery.fromJson(new JsonObject().put("profile", "x\u0000y")));
    org.junit.jupiter.api.Assertions.assertEquals(400, refused.status());
    Throwable err = store.list(new DecisionQuery(null, null, null, "x\u0000y", null, null, 10)).toCompletionStage()
        .handle((ok, e) -> e).toCompletableFuture().join();
    // SQLite stores and compares NUL (an empty list); PostgreSQL refuses it
    org.junit.jupiter.api.Assertions.assertEquals(db.dialect() == dev.argus.store.Database.Dialect.POSTGRES, err != null);
    if (err != null) {
      org.junit.jupiter.api.Assertions.assertEquals(400, dev.argus.bus.BusFailures.toApi(err).status(), err.toString());
    }
  }
}
