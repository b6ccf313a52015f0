package dev.argus.eval.golden;

import dev.argus.eval.score.ChatRunView;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The CI gate's comparison and the golden-set scores, by hand. */
class ComparisonTest {

  private static final double EPS = 1e-9;

  @Test
  void aMetricThatFellMoreThanTheThresholdFailsTheGate() {
    JsonObject now = new JsonObject().put("groundedness", 0.70).put("coherence", 0.96).put("reflectionConcerns", 2.0)
        .put("failedCases", 0.0);
    JsonObject base = new JsonObject().put("groundedness", 0.80).put("coherence", 1.0).put("reflectionConcerns", 1.0)
        .put("failedCases", 0.0).put("keyFactRecall", 0.5);
    Comparison c = Comparison.of(now, base, 0.05);
    // groundedness 0.80 → 0.70: fell 0.10 > 0.05; coherence fell 0.04 ≤ 0.05; concerns rose 1 > 0.05 (lower is better);
    // keyFactRecall is missing now: fell
    assertFalse(c.passed());
    assertTrue(row(c, "groundedness").fell());
    assertEquals(-0.10, row(c, "groundedness").delta(), EPS);
    assertFalse(row(c, "coherence").fell());
    assertTrue(row(c, "reflectionConcerns").fell());
    assertTrue(row(c, "keyFactRecall").fell());
    assertFalse(row(c, "failedCases").fell());
    assertTrue(c.table().contains("FELL"));
    // without a baseline nothing can fall
    assertTrue(Comparison.of(now, null, 0.05).passed());
    assertNull(row(Comparison.of(now, null, 0.05), "groundedness").baseline());
    // a rise in failed cases fails the gate
    assertFalse(Comparison.of(new JsonObject().put("failedCases", 1.0), new JsonObject().put("failedCases", 0.0), 0.05)
        .passed());
  }

  private static Comparison.Row row(Comparison c, String metric) {
    return c.rows().stream().filter(r -> r.metric().equals(metric)).findFirst().orElseThrow();
  }

  @Test
  void expectedCitationAndKeyFactRecall() {
    ChatRunView run = new ChatRunView("r", "p", "q",
        "Refunds are paid within 5 business days. [cite:refund-policy:1] Holds last 7 days. [cite:holds:0]",
        "answer", List.of());
    // expected: refund-policy (any chunk: met), holds:2 (chunk 0 cited: not met), faq (not met) → 1/3
    assertEquals(1.0 / 3, GoldenScores.expectedCitationRecall(List.of("refund-policy", "holds:2", "faq"), run), EPS);
    // a prefix of another document id does not count: "refund" ≠ "refund-policy"
    assertEquals(0.0, GoldenScores.expectedCitationRecall(List.of("refund"), run), EPS);
    // facts: "within 5 business days" terms {within, business, days} all present → met ("5" is one character);
    // "paid to the original card" {paid, original, card}: 1/3 < 0.8 → not met → 1/2
    assertEquals(0.5, GoldenScores.keyFactRecall(List.of("within 5 business days", "paid to the original card"), run), EPS);
    assertNull(GoldenScores.keyFactRecall(List.of(), run));
  }
}
