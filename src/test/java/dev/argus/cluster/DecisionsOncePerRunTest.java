package dev.argus.cluster;

import dev.argus.common.ApiException;
import dev.argus.decide.store.DecisionStore;
import dev.argus.decide.store.DecisionStores;
import dev.argus.knowledge.pg.PgTestDatabase;
import dev.argus.store.Database;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Side effects are idempotent by run id (migration V14_1): a run records at most one decision in either dialect, so
 * a decision retried (or its run taken over) after a node died is refused with 409 {@code duplicate_run}; a review's
 * correction, which carries the run id of the decision it corrects, is still recorded.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DecisionsOncePerRunTest {

  private Vertx vertx;
  private PgTestDatabase pg;
  private Database sqlite;
  private Database postgres;

  @BeforeAll
  void open() throws Exception {
    vertx = Vertx.vertx();
    pg = PgTestDatabase.create();
    postgres = await(Database.postgres(vertx, pg.conf()));
    sqlite = await(Database.sqlite(vertx, TestApp.tempDataDir().resolve("argus.db")));
  }

  @AfterAll
  void close() throws Exception {
    await(postgres.close());
    await(sqlite.close());
    await(vertx.close());
    pg.close();
  }

  @Test
  void postgresRecordsOneDecisionPerRun() throws Exception {
    check(DecisionStores.create(postgres));
  }

  @Test
  void sqliteRecordsOneDecisionPerRun() throws Exception {
    check(DecisionStores.create(sqlite));
  }

  private void check(DecisionStore store) throws Exception {
    await(store.append(decision("dec-1", "run-7", null)));
    ExecutionException dup = assertThrows(ExecutionException.class,
        () -> await(store.append(decision("dec-2", "run-7", null))));
    ApiException api = assertInstanceOf(ApiException.class, dup.getCause());
    assertEquals(409, api.status());
    assertEquals("duplicate_run", api.code());
    assertEquals(java.util.Optional.empty(), await(store.get("dec-2")));
    // a correction of the run's decision, and other runs, are recorded
    await(store.append(decision("dec-3", "run-7", "dec-1")));
    await(store.append(decision("dec-4", "run-8", null)));
    assertEquals("run-7", await(store.get("dec-3")).orElseThrow().getString("runId"));
  }

  private static JsonObject decision(String id, String runId, String corrects) {
    return new JsonObject().put("decisionId", id).put("profile", "seller_onboarding").put("subjectId", "S-1")
        .put("outcome", "approve").put("status", "final").put("riskScore", 0.1).put("confidence", 0.9)
        .put("createdAtMs", System.currentTimeMillis()).put("correctsDecisionId", corrects).put("runId", runId);
  }

  private static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }
}
