package dev.argus.feedback;

import dev.argus.feedback.calibration.Calibrator;
import dev.argus.feedback.calibration.Outcome;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The behaviour every {@link FeedbackStore} must have, on a real database of each dialect. Each test its own profile. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class FeedbackStoreContract {

  protected Vertx vertx;
  protected Database db;
  protected FeedbackStore store;

  protected abstract Future<Database> openDatabase(Vertx vertx);

  protected void dropDatabase() {
  }

  @BeforeAll
  void open() {
    vertx = Vertx.vertx();
    db = await(openDatabase(vertx));
    store = FeedbackStores.create(db);
  }

  @AfterAll
  void close() {
    await(db.close());
    await(vertx.close());
    dropDatabase();
  }

  static DecisionRef decision(String id, String profile, double confidence, Double calibrated, long at) {
    return new DecisionRef(id, profile, "S-" + id, "REJECT", confidence, calibrated, calibrated == null ? null : 1, at,
        null, null);
  }

  static Feedback verdict(String target, String profile, Label label, Reason reason, String analyst, Double conf,
                          long at) {
    return new Feedback("fb-" + UUID.randomUUID(), FeedbackRequest.Target.DECISION, target, profile, label, reason,
        label == Label.CORRECT ? "REJECT" : "APPROVE", null, "seen", analyst, Feedback.SOURCE_ANALYST, conf, at);
  }

  @Test
  void indexesADecisionAndKeepsItsLabelWhenReindexed() {
    String p = "p-" + UUID.randomUUID();
    await(store.indexDecision(decision("D-a" + p, p, 0.8, 0.6, 100)));
    await(store.record(verdict("D-a" + p, p, Label.INCORRECT, Reason.FALSE_POSITIVE, "ann", 0.8, 200)));
    await(store.indexDecision(decision("D-a" + p, p, 0.81, 0.61, 100))); // e.g. seen again via decisions.get
    DecisionRef d = await(store.decision("D-a" + p)).orElseThrow();
    assertEquals(0.81, d.confidence(), 1e-12);
    assertEquals(0.61, d.calibratedConfidence(), 1e-12);
    assertEquals(Label.INCORRECT, d.label());
    assertEquals("APPROVE", d.trueOutcome());
    assertTrue(await(store.decision("D-none")).isEmpty());
  }

  @Test
  void queueHoldsUnlabelledDecisionsLowestCalibratedConfidenceFirst() {
    String p = "p-" + UUID.randomUUID();
    // effective confidence: calibrated when present, raw otherwise
    await(store.indexDecision(decision("D-1" + p, p, 0.95, 0.40, 10)));  // .40
    await(store.indexDecision(decision("D-2" + p, p, 0.30, null, 20)));  // .30
    await(store.indexDecision(decision("D-3" + p, p, 0.90, 0.85, 30)));  // .85
    await(store.indexDecision(decision("D-4" + p, p, 0.50, 0.20, 40)));  // .20, but labelled below
    await(store.indexDecision(decision("D-5" + p, p, 0.40, 0.40, 5)));   // .40, older than D-1
    await(store.indexDecision(decision("D-x" + p, "other-" + p, 0.01, 0.01, 5)));
    await(store.record(verdict("D-4" + p, p, Label.CORRECT, Reason.GOOD_DECISION, "ann", 0.5, 50)));
    List<String> ids = await(store.queue(p, 10)).stream().map(DecisionRef::decisionId).toList();
    assertEquals(List.of("D-2" + p, "D-5" + p, "D-1" + p, "D-3" + p), ids);
    assertEquals(List.of("D-2" + p, "D-5" + p), await(store.queue(p, 2)).stream().map(DecisionRef::decisionId).toList());
    assertEquals("D-x" + p, await(store.queue(null, 1)).get(0).decisionId(), "all profiles: the lowest overall");
  }

  @Test
  void outcomesAndTalliesCountWhatWasStored() {
    String p = "p-" + UUID.randomUUID();
    long t0 = 1_000_000;
    await(store.indexDecision(decision("D-1" + p, p, 0.9, 0.7, t0)));
    await(store.indexDecision(decision("D-2" + p, p, 0.6, null, t0)));
    await(store.indexDecision(decision("D-3" + p, p, 0.3, 0.35, t0)));
    await(store.record(verdict("D-1" + p, p, Label.CORRECT, Reason.GOOD_DECISION, "ann-" + p, 0.9, t0 + 1)));
    await(store.record(verdict("D-2" + p, p, Label.INCORRECT, Reason.FALSE_POSITIVE, "bob-" + p, 0.6, t0 + 2)));
    // a second verdict on D-2 by another analyst: the latest label wins for calibration
    await(store.record(verdict("D-2" + p, p, Label.CORRECT, Reason.OTHER, "ann-" + p, 0.6, t0 + 3)));
    await(store.record(verdict("D-3" + p, p, Label.INCORRECT, Reason.MISSING_EVIDENCE, "ann-" + p, 0.3, t0 + 4)));
    assertEquals(List.of(new Outcome(0.9, true), new Outcome(0.6, true), new Outcome(0.3, false)),
        await(store.outcomes(p)));
    assertEquals(List.of(new Outcome(0.7, true), new Outcome(0.35, false)), await(store.calibratedOutcomes(p)),
        "only decisions that carried a calibrated confidence");
    assertEquals(Map.of(p, 3L), Map.of(p, await(store.labelCounts()).get(p)));
    assertEquals(4, await(store.forTarget("D-2" + p, 10)).size() + 2, "two verdicts on D-2");
    assertEquals("ann-" + p, await(store.forTarget("D-2" + p, 10)).get(0).analyst(), "newest first");

    List<FeedbackStore.Tally> byAnalyst = await(store.tallies(FeedbackStore.By.ANALYST, null)).stream()
        .filter(t -> t.key().endsWith(p)).toList();
    // ann: D-1 correct, D-2 correct, D-3 incorrect -> 3 (2/1); bob: D-2 incorrect -> 1 (0/1)
    assertEquals(List.of(new FeedbackStore.Tally("ann-" + p, 3, 2, 1, null),
        new FeedbackStore.Tally("bob-" + p, 1, 0, 1, null)), byAnalyst);
    FeedbackStore.Tally since = await(store.tallies(FeedbackStore.By.PROFILE, t0 + 3)).stream()
        .filter(t -> t.key().equals(p)).findFirst().orElseThrow();
    assertEquals(new FeedbackStore.Tally(p, 2, 1, 1, null), since, "verdicts at t0+3 and t0+4");
    assertTrue(await(store.tallies(FeedbackStore.By.REASON, null)).stream()
        .anyMatch(t -> t.key().equals("missing_evidence") && t.count() >= 1));
  }

  @Test
  void runVerdictsCarryRatingsAndNoDecisionLabel() {
    String p = "p-" + UUID.randomUUID();
    long at = 5_000_000_000L + (long) (Math.random() * 1e6);
    await(store.record(new Feedback("fb-r1" + p, FeedbackRequest.Target.RUN, "run-" + p, p, null, null, null, 4,
        "good answer", "cy-" + p, Feedback.SOURCE_ANALYST, null, at)));
    await(store.record(new Feedback("fb-r2" + p, FeedbackRequest.Target.RUN, "run-" + p, p, Label.INCORRECT,
        Reason.MISSING_EVIDENCE, null, 1, null, "cy-" + p, Feedback.SOURCE_ANALYST, null, at + 1)));
    FeedbackStore.Tally t = await(store.tallies(FeedbackStore.By.ANALYST, null)).stream()
        .filter(x -> x.key().equals("cy-" + p)).findFirst().orElseThrow();
    assertEquals(2, t.count());
    assertEquals(0, t.correct());
    assertEquals(1, t.incorrect());
    assertEquals(2.5, t.meanRating(), 1e-9, "(4 + 1) / 2");
    Feedback back = await(store.forTarget("run-" + p, 10)).get(1);
    assertEquals(4, back.rating());
    assertNull(back.label());
    assertEquals(FeedbackRequest.Target.RUN, back.target());
    assertTrue(await(store.outcomes(p)).isEmpty());
  }

  @Test
  void aLabelOnAnUnknownDecisionWritesNothing() {
    String p = "p-" + UUID.randomUUID();
    assertThrows(RuntimeException.class, () -> await(store.record(verdict("D-ghost" + p, p, Label.CORRECT,
        Reason.GOOD_DECISION, "ann-" + p, 0.5, 1))));
    assertTrue(await(store.forTarget("D-ghost" + p, 10)).isEmpty(), "the verdict was rolled back");
  }

  @Test
  void calibratorsAreVersionedPerProfile() {
    String p = "p-" + UUID.randomUUID();
    List<Outcome> labels = List.of(new Outcome(0.2, false), new Outcome(0.4, true), new Outcome(0.9, true));
    Calibrator v1 = Calibrator.fit(p, 1, 1000, labels);
    Calibrator v2 = Calibrator.fit(p, 2, 2000, List.of(new Outcome(0.5, true), new Outcome(0.6, false)));
    await(store.saveCalibrator(v1));
    await(store.saveCalibrator(v2));
    assertThrows(RuntimeException.class, () -> await(store.saveCalibrator(v2)), "a version is written once");
    Calibrator latest = await(store.latestCalibrators()).stream().filter(c -> c.profile().equals(p)).findFirst()
        .orElseThrow();
    assertEquals(2, latest.version());
    assertEquals(v2.blocks(), latest.blocks());
    assertEquals(v2.apply(0.55), latest.apply(0.55), 1e-15);
    assertEquals(v2.eceBefore(), latest.eceBefore(), 1e-12);
    assertEquals(List.of(2, 1), await(store.calibratorHistory(p, 10)).stream().map(Calibrator::version).toList());
    assertEquals(3, await(store.calibratorHistory(p, 10)).get(1).labels());
  }
}
