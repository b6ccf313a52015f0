package dev.argus.adversarial;

import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.List;
import java.util.UUID;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What every {@link AdversarialStore} must do, on a real database of each dialect. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AdversarialStoreContract {

  protected Vertx vertx;
  protected Database db;
  protected AdversarialStore store;

  protected abstract Future<Database> openDatabase(Vertx vertx);

  protected void dropDatabase() {
  }

  @BeforeAll
  void open() {
    vertx = Vertx.vertx();
    db = await(openDatabase(vertx));
    store = new SqlAdversarialStore(db);
  }

  @AfterAll
  void close() {
    await(db.close());
    await(vertx.close());
    dropDatabase();
  }

  private static AdversarialRun run(List<ScenarioType> suite, int size, long at) {
    return new AdversarialRun("adv-" + UUID.randomUUID(), suite, size, 7, AdversarialRun.RUNNING, null, null, at, null);
  }

  @Test
  void keepsARunFromRunningToItsReport() {
    AdversarialRun r = run(List.of(ScenarioType.MULE_NETWORK, ScenarioType.HIDDEN_INSTRUCTIONS), 60, 1000);
    await(store.save(r));
    AdversarialRun stored = await(store.get(r.executionId())).orElseThrow();
    assertEquals(AdversarialRun.RUNNING, stored.status());
    assertEquals(r.suite(), stored.suite());
    JsonObject report = new JsonObject().put("types", new JsonObject().put("mule_network",
        new JsonObject().put("detectionRate", 0.75)));
    await(store.save(r.completed(report, 2000)));
    stored = await(store.get(r.executionId())).orElseThrow();
    assertEquals(AdversarialRun.COMPLETED, stored.status());
    assertEquals(0.75, stored.report().getJsonObject("types").getJsonObject("mule_network").getDouble("detectionRate"));
    assertEquals(2000L, stored.finishedAt());
    assertTrue(await(store.get("adv-none")).isEmpty());
  }

  @Test
  void theBaselineIsTheNewestCompletedRunOfTheSameSuiteAndSize() {
    List<ScenarioType> suite = List.of(ScenarioType.COLLUSION_RING, ScenarioType.ACCOUNT_TAKEOVER);
    long base = 10_000_000L + (long) (Math.random() * 1e9);
    AdversarialRun old = run(suite, 120, base).completed(new JsonObject().put("n", 1), base + 1);
    AdversarialRun newer = run(List.of(ScenarioType.ACCOUNT_TAKEOVER, ScenarioType.COLLUSION_RING), 120, base + 10).completed(new JsonObject().put("n", 2), base + 11);
    AdversarialRun otherSize = run(suite, 180, base + 20).completed(new JsonObject().put("n", 3), base + 21);
    AdversarialRun failed = run(suite, 120, base + 30).failed("boom", base + 31);
    AdversarialRun current = run(suite, 120, base + 40);
    for (AdversarialRun r : List.of(old, newer, otherSize, failed, current)) {
      await(store.save(r));
    }
    AdversarialRun b = await(store.previousCompleted(current.suiteKey(), 120, current.executionId())).orElseThrow();
    assertEquals(newer.executionId(), b.executionId(), "same suite in another order is the same suite");
    assertEquals(2, b.report().getInteger("n"));
    assertTrue(await(store.previousCompleted("hidden_instructions", 120, "x")).isEmpty());
  }

  @Test
  void runsLeftRunningAreMarkedFailedAtStart() {
    AdversarialRun r = run(List.of(ScenarioType.STRUCTURING), 60, 5);
    await(store.save(r));
    assertTrue(await(store.failInterrupted(99)) >= 1);
    AdversarialRun stored = await(store.get(r.executionId())).orElseThrow();
    assertEquals(AdversarialRun.FAILED, stored.status());
    assertTrue(stored.error().startsWith("interrupted"));
    assertTrue(await(store.list(500)).stream().anyMatch(x -> x.executionId().equals(r.executionId())));
  }
}
