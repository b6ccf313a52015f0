package dev.argus.eval;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PairedComparisonTest {

  @Test
  void exactTestEnumeratesEverySignOfTheNonZeroDifferences() {
    // differences a - b: +0.5, +0.25, -0.125, 0 -> sum 0.625, mean 0.15625. The three non-zero ones take 8 sign
    // assignments with sums +-0.875, +-0.625, +-0.375, +-0.125; |sum| >= 0.625 for 4 of 8 -> p = 0.5.
    PairedComparison c = PairedComparison.of("a", "b", List.of(0.75, 0.5, 0.375, 0.25), List.of(0.25, 0.25, 0.5, 0.25));
    assertEquals(0.15625, c.meanDifference(), 1e-12);
    assertEquals(2, c.wins());
    assertEquals(1, c.losses());
    assertEquals(1, c.ties());
    assertEquals(0.5, c.p(), 1e-12);
  }

  @Test
  void aConsistentDifferenceOnFewQueriesIsAsSignificantAsTheirNumberAllows() {
    // five queries, all +0.1: only the all-plus and all-minus assignments reach |sum| 0.5 -> p = 2 / 32.
    PairedComparison c = PairedComparison.of("a", "b", Collections.nCopies(5, 0.6), Collections.nCopies(5, 0.5));
    assertEquals(2.0 / 32, c.p(), 1e-12);
    assertEquals(5, c.wins());
    assertEquals(0.1, c.meanDifference(), 1e-12);
  }

  @Test
  void identicalModesAreIndistinguishable() {
    PairedComparison c = PairedComparison.of("a", "b", List.of(0.3, 0.7, 1.0), List.of(0.3, 0.7, 1.0));
    assertEquals(1.0, c.p());
    assertEquals(0, c.wins() + c.losses());
    assertEquals(3, c.ties());
    assertEquals(0.0, c.meanDifference());
  }

  @Test
  void manyQueriesAreSampledFromAFixedSeed() {
    // 200 queries: +0.01 on 120, -0.01 on 80 -> sum 0.4. Exactly: p = P(|2B - 200| >= 40) for B ~ Bin(200, 1/2)
    // = 2 * P(B >= 120) = 0.0057 (normal approximation with continuity correction: z = 39 / sqrt(200) = 2.758,
    // p = 0.0058). The sampled p must land near it and be the same on every run.
    List<Double> x = new ArrayList<>();
    List<Double> y = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      x.add(i < 120 ? 0.51 : 0.49);
      y.add(0.5);
    }
    PairedComparison c = PairedComparison.of("a", "b", x, y);
    assertEquals(0.0057, c.p(), 0.0015, "sampled p " + c.p());
    assertEquals(c.p(), PairedComparison.of("a", "b", x, y).p(), "same seed, same p");
    assertEquals(120, c.wins());
    assertEquals(80, c.losses());
    // a difference that shows on nearly every query is far beyond chance: only the observed assignment counts
    PairedComparison strong = PairedComparison.of("a", "b", Collections.nCopies(100, 0.9), Collections.nCopies(100, 0.1));
    assertEquals(1.0 / (PairedComparison.SAMPLES + 1), strong.p(), 1e-12);
  }

  @Test
  void scoresOfDifferentQuerySetsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> PairedComparison.of("a", "b", List.of(0.1), List.of(0.1, 0.2)));
    assertThrows(IllegalArgumentException.class, () -> PairedComparison.of("a", "b", List.of(), List.of()));
  }

  @Test
  void lineAndJsonReportTheFigures() {
    PairedComparison c = PairedComparison.of("hybrid-default", "hybrid", List.of(0.75, 0.5, 0.375, 0.25),
        List.of(0.25, 0.25, 0.5, 0.25));
    assertEquals("hybrid-default vs hybrid: mean nDCG@10 difference +0.1563 (wins 2, losses 1, ties 1),"
        + " paired randomization p = 0.500 (not significant at 0.05)", c.line("nDCG@10"));
    JsonObject json = c.toJson();
    assertEquals(0.1563, json.getDouble("meanDifference"));
    assertEquals(0.5, json.getDouble("p"));
    assertEquals(2, json.getInteger("wins"));
    PairedComparison significant = PairedComparison.of("a", "b", Collections.nCopies(100, 0.9), Collections.nCopies(100, 0.1));
    assertTrue(significant.line("nDCG@10").endsWith("paired randomization p < 0.001"), significant.line("nDCG@10"));
  }
}
