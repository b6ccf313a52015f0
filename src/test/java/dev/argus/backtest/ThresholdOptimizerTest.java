package dev.argus.backtest;

import dev.argus.backtest.ThresholdOptimizer.Point;
import dev.argus.backtest.ThresholdOptimizer.Proposal;
import dev.argus.backtest.ThresholdOptimizer.Scored;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Thresholds from costs on eight labelled scores: honest at 10, 20, 40, 60; fraudulent at 30, 50, 70, 80. Rule:
 * score ≥ reject → stop, review ≤ score < reject → review, otherwise pass.
 */
class ThresholdOptimizerTest {

  static final double EPS = 1e-9;
  static final List<Scored> DATA = List.of(new Scored(10, false), new Scored(20, false), new Scored(30, true),
      new Scored(40, false), new Scored(50, true), new Scored(60, false), new Scored(70, true), new Scored(80, true));

  @Test
  void minimisesExpectedCost() {
    // missed fraud 100, wrong block 50, review 10, no cap on reviews.
    // Review [30, 70), stop ≥ 70: reviews 30f 40h 50f 60h = 4 · 10 = 40, nothing missed, nothing wrongly stopped.
    // Alternatives: review everything ≥ 30 = 6 · 10 = 60; review 30..50 and stop 60h = 30 + 50 = 80;
    // stop everything ≥ 30 = 2 honest · 50 = 100; pass 30f = 100 + ... So 40 is the minimum.
    Proposal p = ThresholdOptimizer.propose(DATA, new CostModel(100, 50, 10, 1.0));
    Point best = p.best();
    assertEquals(40.0, best.cost(), EPS);
    assertEquals(25.0, best.review(), EPS); // halfway between 20 and 30
    assertEquals(65.0, best.reject(), EPS); // halfway between 60 and 70
    assertEquals(0, best.fraudPassed());
    assertEquals(2, best.fraudReviewed());
    assertEquals(2, best.fraudStopped());
    assertEquals(2, best.honestPassed());
    assertEquals(2, best.honestReviewed());
    assertEquals(0, best.honestStopped());
    assertEquals(1.0, best.recall(), EPS);
    assertEquals(4.0 / 6, best.precision(), EPS); // 4 fraud of 6 flagged
    assertEquals(0.5, best.reviewRate(), EPS); // 4 of 8
    // the curve: one point per review cut (9 cuts: 8 distinct scores and "never"), best reject for each
    assertEquals(9, p.curve().size());
    assertEquals(0.0, p.curve().get(0).review(), EPS);
    assertTrue(p.curve().stream().allMatch(c -> c.cost() >= best.cost()));
  }

  @Test
  void respectsTheReviewCap() {
    // at most 25 % of 8 = 2 reviews. Review {30f, 40h}, stop ≥ 50 (60h wrongly): 2 · 10 + 50 = 70.
    // Others: stop ≥ 30 = 100; review {30f} stop ≥ 40 = 10 + 100 = 110; review {50f, 60h} passing 30f = 120.
    Point best = ThresholdOptimizer.propose(DATA, new CostModel(100, 50, 10, 0.25)).best();
    assertEquals(70.0, best.cost(), EPS);
    assertEquals(25.0, best.review(), EPS);
    assertEquals(45.0, best.reject(), EPS);
    assertEquals(1, best.honestStopped());
    assertEquals(2, best.fraudReviewed() + best.honestReviewed());
  }

  @Test
  void tiesGoToFewerReviews() {
    // reviews cost nothing: every pair that passes no fraud and stops no honest subject costs 0. The fewest reviews
    // doing that: pass < 30, review [30, 70) (4 subjects), stop ≥ 70.
    Point best = ThresholdOptimizer.propose(DATA, new CostModel(100, 50, 0, 1.0)).best();
    assertEquals(0.0, best.cost(), EPS);
    assertEquals(25.0, best.review(), EPS);
    assertEquals(65.0, best.reject(), EPS);
  }

  @Test
  void neverStopIsAboveTheTopScore() {
    // add an honest subject at 90: any reject cut that stops 70f/80f also stops 90h, and that costs 10,000. So stop
    // nothing and review everything from 30 up: 7 · 1 = 7 (passing 30f would cost 100).
    List<Scored> data = new ArrayList<>(DATA);
    data.add(new Scored(90, false));
    Point best = ThresholdOptimizer.propose(data, new CostModel(100, 10_000, 1, 1.0)).best();
    assertEquals(7.0, best.cost(), EPS);
    assertEquals(25.0, best.review(), EPS);
    assertEquals(95.0, best.reject(), EPS); // halfway between the top score 90 and 100: stops nothing seen
    assertEquals(0, best.fraudStopped() + best.honestStopped());
  }

  @Test
  void manyDistinctScoresAreRoundedAndStillOptimal() {
    // 3000 honest at 0.000..29.990 (step 0.01), 3000 fraudulent at 70.000..99.990: any cut between 30 and 70 is free
    List<Scored> data = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      data.add(new Scored(i / 100.0, false));
      data.add(new Scored(70 + i / 100.0, true));
    }
    Point best = ThresholdOptimizer.propose(data, new CostModel(100, 50, 10, 1.0)).best();
    assertEquals(0.0, best.cost(), EPS);
    assertEquals(50.0, best.review(), EPS); // halfway between 30.0 (29.99 rounded) and 70.0
    assertEquals(50.0, best.reject(), EPS);
    assertTrue(ThresholdOptimizer.propose(data, new CostModel(100, 50, 10, 1.0)).curve().size() <= 101);
  }

  @Test
  void emptyDataAndBadCosts() {
    assertNull(ThresholdOptimizer.propose(List.of(), new CostModel(1, 1, 1, 1)).best());
    assertThrows(IllegalArgumentException.class, () -> new CostModel(-1, 1, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> new CostModel(1, 1, 1, 1.5));
  }
}
