package dev.argus.eval.score;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The decision metrics on hand-made decisions. */
class DecisionScoresTest {

  private static final double EPS = 1e-9;

  private static JsonObject cite(String status) {
    return new JsonObject().put("citation", "[entity:seller:S-1]").put("status", status).put("confidence", 0.9);
  }

  private static JsonObject decision() {
    return new JsonObject().put("decisionId", "d1").put("runId", "r1").put("profile", "onboarding")
        .put("outcome", "REVIEW")
        .put("reasons", new JsonArray()
            .add(new JsonObject().put("text", "shared device").put("citations", new JsonArray()
                .add(cite("valid")).add(cite("flagged"))))
            .add(new JsonObject().put("text", "watchlist").put("citations", new JsonArray()
                .add(cite("valid")).add(cite("excluded")).add(cite("valid")))))
        .put("signals", new JsonArray()
            .add(new JsonObject().put("name", "a").put("contribution", 12.0).put("cite", "[rel:1]"))
            .add(new JsonObject().put("name", "b").put("contribution", -4.0).put("cite", "[source:ip_risk:2]"))
            .add(new JsonObject().put("name", "c").put("contribution", 3.0))
            .add(new JsonObject().put("name", "d").put("contribution", 0.0)))
        .put("reflection", new JsonObject().put("concerns", new JsonArray().add("thin history").add("one source")))
        .put("consensus", new JsonObject().put("votes", new JsonArray()
            .add(new JsonObject().put("outcome", "REVIEW")).add(new JsonObject().put("outcome", "REVIEW"))
            .add(new JsonObject().put("outcome", "REJECT")).add(new JsonObject().put("outcome", "REVIEW"))));
  }

  @Test
  void scoresEveryDecisionMetric() {
    Scorecard card = DecisionScores.score(decision());
    // citations: valid, flagged, valid, excluded, valid → 3 of 5 valid
    assertEquals(0.6, card.get(Metric.CITATION_VALIDITY_RATE), EPS);
    // signals moving the score: a, b, c (d contributes 0); cited: a, b → 2/3
    assertEquals(2.0 / 3, card.get(Metric.EVIDENCE_COVERAGE), EPS);
    // two concerns
    assertEquals(2.0, card.get(Metric.REFLECTION_CONCERNS), EPS);
    // votes REVIEW, REVIEW, REJECT, REVIEW for outcome REVIEW → 3/4
    assertEquals(0.75, card.get(Metric.CONSENSUS_AGREEMENT), EPS);
    // aggregate leaves the concern count out: (0.6 + 2/3 + 0.75) / 3
    assertEquals((0.6 + 2.0 / 3 + 0.75) / 3, card.get(Metric.AGGREGATE), EPS);
  }

  @Test
  void anExplicitAgreementWinsAndAbsentPartsAreNoted() {
    JsonObject d = new JsonObject().put("decisionId", "d2").put("outcome", "APPROVE")
        .put("consensus", new JsonObject().put("agreement", 0.4));
    Scorecard card = DecisionScores.score(d);
    assertEquals(0.4, card.get(Metric.CONSENSUS_AGREEMENT), EPS);
    // no citations → validity 0 with a note; no moving signal → coverage absent; no reflection → absent
    assertEquals(0.0, card.get(Metric.CITATION_VALIDITY_RATE), EPS);
    assertNull(card.get(Metric.EVIDENCE_COVERAGE));
    assertNull(card.get(Metric.REFLECTION_CONCERNS));
    assertTrue(card.notes().containsKey("evidenceCoverage"));
    // aggregate (0 + 0.4) / 2
    assertEquals(0.2, card.get(Metric.AGGREGATE), EPS);
  }
}
