package dev.argus.agent.compose;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The answerability gate on hand-made evidence: each rule can refuse an answer, and a good answer passes. */
class AnswerabilityTest {

  private static final EvidenceChunk CASE = new EvidenceChunk("case-10472", 0, "Case SLR-10472 - synthetic seller",
      "Outcome: account closed, balance of 18,420 EUR retained. Device fingerprint: dfp-7f3a9c21.", 0.9, 0, 0, 0.8);
  private static final EvidenceChunk HOLDS = new EvidenceChunk("holds", 1, "Payout holds and rolling reserves",
      "After a change of payout bank account payouts are held for 72 hours.", 0.8, 1, 0, 0.7);

  private static Map<String, EvidenceChunk> evidence() {
    Map<String, EvidenceChunk> m = new LinkedHashMap<>();
    m.put(CASE.key(), CASE);
    m.put(HOLDS.key(), HOLDS);
    return m;
  }

  private static Answerability.Verdict check(String question, String sentence, EvidenceChunk cited) {
    return Answerability.check(QuestionAnalysis.of(question),
        List.of(new Answerability.Claim(sentence, List.of(cited.key()), "")), evidence(), 0.55);
  }

  @Test
  void anAnswerAboutTheSubjectAskedWithTheKindOfAnswerAskedPasses() {
    Answerability.Verdict v = check("Which device fingerprint did seller SLR-10472 use?",
        "Device fingerprint: dfp-7f3a9c21.", CASE);
    assertTrue(v.answerable(), v.toJson().encode());
    // key terms {device, fingerprint, seller}: all in the chunk; the sentence with the title covers device and
    // fingerprint, and "seller" from the title: 3/3 -> score 0.5 x 1 + 0.5 x 1
    assertEquals(1.0, v.score(), 1e-9);
  }

  @Test
  void aNamedThingNoCitedEvidenceMentionsRefuses() {
    Answerability.Verdict v = check("Which device fingerprint did seller SLR-15520 use?",
        "Device fingerprint: dfp-7f3a9c21.", CASE);
    assertFalse(v.answerable());
    assertEquals(List.of("SLR-15520"), v.missing());
    // nothing composed at all: the reason says what is missing from the whole evidence
    Answerability.Verdict none = Answerability.check(QuestionAnalysis.of("What was decided in case SLR-15520?"),
        List.of(), evidence(), 0.55);
    assertEquals("no document mentions SLR-15520", none.reason());
  }

  @Test
  void theWrongKindOfAnswerRefuses() {
    Answerability.Verdict v = check("How long are payouts held after a change of payout bank account?",
        "After a change of payout bank account payouts are held.", HOLDS);
    assertFalse(v.answerable());
    assertEquals("no passage gives the time asked for", v.reason());
  }

  @Test
  void anAttributeTheEvidenceNeverNamesRefuses() {
    Answerability.Verdict v = check("What interest rate is paid on held payouts?",
        "After a change of payout bank account payouts are held for 72 hours.", HOLDS);
    assertFalse(v.answerable());
    assertTrue(v.reason().contains("interest"), v.reason());
  }

  @Test
  void evidenceAboutSomethingElseRefusesUnlessAModelJudgedOtherwise() {
    String q = "How are merchants onboarded with late paperwork?";
    String s = "Outcome: account closed, balance of 18,420 EUR retained.";
    Answerability.Verdict v = check(q, s, CASE);
    assertFalse(v.answerable(), v.toJson().encode());
    assertEquals("the evidence is about something else", v.reason());
    Answerability.Verdict judged = Answerability.check(QuestionAnalysis.of(q),
        List.of(new Answerability.Claim(s, List.of(CASE.key()), "")), evidence(), 0.55, true);
    assertTrue(judged.answerable(), judged.toJson().encode());
  }

  @Test
  void evidenceFarFromTheQuestionRefuses() {
    EvidenceChunk far = new EvidenceChunk("far", 0, "Payout holds", "Payouts are held for 72 hours after a bank "
        + "account change.", 0.1, 0, 0, 0.4);
    Answerability.Verdict v = Answerability.check(QuestionAnalysis.of("How long are payouts held after a bank change?"),
        List.of(new Answerability.Claim("Payouts are held for 72 hours after a bank account change.",
            List.of(far.key()), "")), Map.of(far.key(), far), 0.55);
    assertFalse(v.answerable());
    assertTrue(v.reason().contains("close"), v.reason());
  }
}
