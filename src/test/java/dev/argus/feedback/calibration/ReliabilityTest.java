package dev.argus.feedback.calibration;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReliabilityTest {

  static Outcome o(double c, boolean correct) {
    return new Outcome(c, correct);
  }

  @Test
  void bucketsAndEceByHand() {
    List<Outcome> outcomes = List.of(o(0.1, false), o(0.3, true), o(0.35, false), o(0.9, true), o(0.9, true),
        o(0.95, false), o(0.85, true), o(0.7, true));
    Reliability r = Reliability.of(outcomes);
    // b0 [0,.2): {0.1 wrong}            n=1 conf .1   acc 0   gap .1
    // b1 [.2,.4): {0.3 right, 0.35 wrong} n=2 conf .325 acc .5  gap .175
    // b2 [.4,.6): empty
    // b3 [.6,.8): {0.7 right}           n=1 conf .7   acc 1   gap .3
    // b4 [.8,1]: {.9 R, .9 R, .95 W, .85 R} n=4 conf .9 acc .75 gap .15
    // ECE = (1*.1 + 2*.175 + 1*.3 + 4*.15) / 8 = 1.35 / 8 = 0.16875
    assertEquals(0.16875, r.ece(), 1e-12);
    assertEquals(8, r.total());
    assertEquals(List.of(1, 2, 0, 1, 4), r.buckets().stream().map(Reliability.Bucket::count).toList());
    assertEquals(0.325, r.buckets().get(1).meanConfidence(), 1e-12);
    assertEquals(0.5, r.buckets().get(1).accuracy(), 1e-12);
    assertEquals(0.9, r.buckets().get(4).meanConfidence(), 1e-12);
    assertEquals(0.75, r.buckets().get(4).accuracy(), 1e-12);
    assertEquals(5.0 / 8, r.accuracy(), 1e-12);
    JsonObject json = r.toJson();
    assertEquals(4, json.getJsonArray("reliabilityDiagram").size(), "one point per non-empty bucket");
    assertEquals(0.7, json.getJsonArray("reliabilityDiagram").getJsonObject(2).getDouble("confidence"), 1e-12);
  }

  @Test
  void bucketEdges() {
    assertEquals(0, Reliability.bucketOf(0.0));
    assertEquals(0, Reliability.bucketOf(0.1999));
    assertEquals(1, Reliability.bucketOf(0.2));
    assertEquals(3, Reliability.bucketOf(0.6));
    assertEquals(4, Reliability.bucketOf(0.8));
    assertEquals(4, Reliability.bucketOf(1.0), "1.0 belongs to the last, closed bucket");
  }

  @Test
  void perfectlyCalibratedIsZeroAndEmptyIsNaN() {
    // 0.5 twice, one right: acc .5 = conf .5; 1.0 right: acc 1 = conf 1 -> ECE 0
    assertEquals(0.0, Reliability.of(List.of(o(0.5, true), o(0.5, false), o(1.0, true))).ece(), 1e-12);
    assertTrue(Double.isNaN(Reliability.of(List.of()).ece()));
    assertTrue(Reliability.of(List.of()).toJson().containsKey("ece"));
  }

  @Test
  void confidenceOutsideZeroToOneIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> o(1.01, true));
    assertThrows(IllegalArgumentException.class, () -> o(Double.NaN, true));
  }
}
