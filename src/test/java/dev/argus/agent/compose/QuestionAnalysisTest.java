package dev.argus.agent.compose;

import dev.argus.agent.compose.QuestionAnalysis.AnswerType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reading a question by rules: named things, the kind of answer, the focus, key terms, parts. */
class QuestionAnalysisTest {

  @Test
  void namedThingsAreIdentifiersPeriodsPlacesAndNames() {
    QuestionAnalysis q = QuestionAnalysis.of("What was our total fraud loss in Japan in Q3 2024?");
    assertEquals(Set.of("Q3 2024"), q.periods());
    assertEquals(Set.of("Japan"), q.places());
    assertTrue(q.identifiers().isEmpty(), q.identifiers().toString());
    // a year inside an identifier is part of the identifier, not a period
    QuestionAnalysis ct = QuestionAnalysis.of("Which BIN was challenged in the distributed BIN attack CT-2025-09?");
    assertEquals(Set.of("CT-2025-09"), ct.identifiers());
    assertTrue(ct.periods().isEmpty());
    assertEquals(Set.of("Maria Rossi"), QuestionAnalysis.of("What did Maria Rossi find?").names());
    assertEquals(Set.of("Marlow Home Goods"),
        QuestionAnalysis.of("What is the date of birth of the owner of Marlow Home Goods?").names());
    assertEquals(Set.of("March 2023"), QuestionAnalysis.of("How many chargebacks came in March 2023?").periods());
    assertEquals(Set.of("S1"), QuestionAnalysis.of("How quickly must an S1 escalation be picked up?").identifiers());
    // "tier 2" is a level, not an identifier
    assertTrue(QuestionAnalysis.of("How long is the first payout of a tier 2 seller held?").entities().isEmpty());
  }

  @Test
  void theKindOfAnswerFollowsTheWayTheQuestionAsks() {
    assertEquals(AnswerType.NUMBER, QuestionAnalysis.of("How many buyers were closed?").type());
    assertEquals(AnswerType.NUMBER, QuestionAnalysis.of("What dispute ratio triggers a rolling reserve?").type());
    assertEquals(AnswerType.DURATION, QuestionAnalysis.of("How long are payouts held?").type());
    assertEquals(AnswerType.PROCEDURE, QuestionAnalysis.of("What should we do to contain a card testing attack?").type());
    assertEquals(AnswerType.OUTCOME, QuestionAnalysis.of("What was decided in case SLR-10472?").type());
    assertEquals(AnswerType.NAME, QuestionAnalysis.of("What is the name of our compliance officer?").type());
    assertEquals(AnswerType.DATE, QuestionAnalysis.of("What is the date of birth of the owner?").type());
    assertEquals(AnswerType.IDENTIFIER, QuestionAnalysis.of("Which device fingerprint did the seller use?").type());
    assertEquals(AnswerType.OTHER, QuestionAnalysis.of("Why do fraudsters test cards?").type());
  }

  @Test
  void sentencesGiveTheKindOfAnswerOrNot() {
    QuestionAnalysis howLong = QuestionAnalysis.of("How long are payouts held?");
    assertTrue(howLong.answeredBy("Payouts are held for 72 hours.", false));
    assertFalse(howLong.answeredBy("Payouts are held when the account changes.", false));
    QuestionAnalysis which = QuestionAnalysis.of("Which device fingerprint did the seller use?");
    assertTrue(which.answeredBy("The seller used dfp-7f3a9c21.", false));
    assertFalse(which.answeredBy("The seller used 3 devices.", false));
    QuestionAnalysis name = QuestionAnalysis.of("What is the name of our compliance officer?");
    assertFalse(name.answeredBy("The compliance officer (MLRO) owns every filing decision.", false));
    assertTrue(name.answeredBy("The compliance officer is Anna Berg.", false));
    QuestionAnalysis steps = QuestionAnalysis.of("What should we do to contain a card testing attack?");
    assertTrue(steps.answeredBy("Analysts must block the device.", false));
    assertTrue(steps.answeredBy("Enable CAPTCHA on the checkout.", true));
  }

  @Test
  void theFocusIsTheAttributeAskedFor() {
    assertEquals(Set.of("interest", "rate"), QuestionAnalysis.of("What interest rate is paid on held payouts?").focus());
    assertEquals(Set.of("buyer"), QuestionAnalysis.of("How many buyers were closed in the ring?").focus());
    // "how much money" names no attribute of its own
    assertTrue(QuestionAnalysis.of("How much money was frozen?").focus().isEmpty());
    // words that say which kind of answer is wanted are not key terms
    assertFalse(QuestionAnalysis.of("What was decided in case SLR-10472?").keyTerms().contains("decid"));
  }

  @Test
  void mentionsMatchWholeIdentifiersAndOtherWaysOfWritingAPeriod() {
    assertTrue(QuestionAnalysis.mentions("Case SLR-10472 was closed.", "SLR-10472"));
    assertFalse(QuestionAnalysis.mentions("Case SLR-104721 was closed.", "SLR-10472"));
    assertFalse(QuestionAnalysis.mentions("Case SLR-10472 was closed.", "SLR-1047"));
    assertTrue(QuestionAnalysis.mentions("Losses in the third quarter of 2024 rose.", "Q3 2024"));
    assertTrue(QuestionAnalysis.mentions("Opened 2023-03-14.", "March 2023"));
    assertFalse(QuestionAnalysis.mentions("Opened 2023-04-14.", "March 2023"));
    assertTrue(QuestionAnalysis.mentions("sign-up IP 203.0.113.45 was", "203.0.113.45"));
    assertFalse(QuestionAnalysis.mentions("sign-up IP 203.0.113.451 was", "203.0.113.45"));
    assertTrue(QuestionAnalysis.mentions("trading as \"Marlow   Home Goods\"", "Marlow Home Goods"));
  }

  @Test
  void aQuestionThatAsksTwoThingsHasTwoParts() {
    List<QuestionAnalysis> parts = QuestionAnalysis.of(
        "Which coupon code was abused by the device farm, and how many accounts were closed?").parts();
    assertEquals(2, parts.size());
    assertEquals(AnswerType.IDENTIFIER, parts.get(0).type());
    assertEquals(AnswerType.NUMBER, parts.get(1).type());
    assertEquals(1, QuestionAnalysis.of("Which refunds and chargebacks are reviewed?").parts().size());
  }
}
