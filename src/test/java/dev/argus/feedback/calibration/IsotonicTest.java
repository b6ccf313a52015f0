package dev.argus.feedback.calibration;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static dev.argus.feedback.calibration.ReliabilityTest.o;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IsotonicTest {

  /** 0.1:1, 0.2:0, 0.3:0, 0.4:1, 0.5:1, 0.6:0, 0.7:1, 0.8:1 (given shuffled). */
  static final List<Outcome> EIGHT = List.of(o(0.6, false), o(0.1, true), o(0.8, true), o(0.3, false), o(0.2, false),
      o(0.5, true), o(0.4, true), o(0.7, true));

  @Test
  void poolAdjacentViolatorsByHand() {
    // push .1:1 | .2:0 < 1 -> pool [.1,.2]=1/2 | .3:0 < 1/2 -> pool [.1,.3]=1/3 (w3)
    // .4:1 | .5:1 (equal, kept apart) | .6:0 < 1 -> pool [.5,.6]=1/2 < 1 -> pool [.4,.6]=2/3 (w3) >= 1/3 stop
    // .7:1 | .8:1
    List<Isotonic.Block> blocks = Isotonic.fit(EIGHT);
    assertEquals(List.of(new Isotonic.Block(0.1, 0.3, 1.0 / 3, 3), new Isotonic.Block(0.4, 0.6, 2.0 / 3, 3),
        new Isotonic.Block(0.7, 0.7, 1.0, 1), new Isotonic.Block(0.8, 0.8, 1.0, 1)), blocks);
  }

  @Test
  void tiesFormOneBlock() {
    // .2:1, then .5 with outcomes 1, 0, 0 (mean 1/3 < 1) -> everything pooled: 2 of 4 right = 0.5
    List<Isotonic.Block> blocks = Isotonic.fit(List.of(o(0.5, true), o(0.5, false), o(0.2, true), o(0.5, false)));
    assertEquals(List.of(new Isotonic.Block(0.2, 0.5, 0.5, 4)), blocks);
  }

  @Test
  void calibratorInterpolatesBetweenBlocksAndClampsOutside() {
    Calibrator c = Calibrator.fit("onboarding", 1, 1000, EIGHT);
    assertEquals(1.0 / 3, c.apply(0.05), 1e-12, "below the first block: its value");
    assertEquals(1.0 / 3, c.apply(0.2), 1e-12, "inside a block: its value");
    assertEquals(0.5, c.apply(0.35), 1e-12, "halfway from (.3, 1/3) to (.4, 2/3)");
    assertEquals(5.0 / 6, c.apply(0.65), 1e-12, "halfway from (.6, 2/3) to (.7, 1)");
    assertEquals(1.0, c.apply(0.99), 1e-12, "above the last block: its value");
    // in-sample ECE before: b0 {.1:1} gap .9; b1 {.2,.3: 0,0} conf .25 gap .25; b2 {.4,.5: 1,1} conf .45 gap .55;
    // b3 {.6,.7: 0,1} conf .65 acc .5 gap .15; b4 {.8:1} gap .2 -> (.9 + .5 + 1.1 + .3 + .2) / 8 = 0.375
    assertEquals(0.375, c.eceBefore(), 1e-12);
    // after: 1/3 (3 outcomes, 1 right), 2/3 (3, 2 right), 1 (2, 2 right): every bucket exact -> 0
    assertEquals(0.0, c.eceAfter(), 1e-12);
    assertEquals(8, c.labels());
    Calibrator identity = Calibrator.identity("onboarding");
    assertEquals(0.42, identity.apply(0.42));
    assertEquals(0, identity.version());
  }

  @Test
  void fitIsNonDecreasingAndRoundTripsThroughItsModel() {
    Random random = new Random(7);
    List<Outcome> outcomes = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      double c = random.nextDouble();
      outcomes.add(o(c, random.nextDouble() < c * c));
    }
    Calibrator c = Calibrator.fit("transaction", 3, 5, outcomes);
    double last = -1;
    for (double x = 0; x <= 1.0; x += 0.001) {
      double y = c.apply(x);
      assertTrue(y >= last - 1e-12, "non-decreasing at " + x);
      assertTrue(y >= 0 && y <= 1);
      last = y;
    }
    assertEquals(500, c.blocks().stream().mapToInt(Isotonic.Block::weight).sum());
    assertTrue(c.eceAfter() <= c.eceBefore());
    Calibrator back = new Calibrator("transaction", 3, 5, 500, Calibrator.blocksFromJson(c.modelJson()),
        c.eceBefore(), c.eceAfter());
    for (double x = 0; x <= 1.0; x += 0.01) {
      assertEquals(c.apply(x), back.apply(x), 1e-15);
    }
  }
}
