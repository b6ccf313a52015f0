package dev.argus.agent.compose;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rule-based Reflect check on hand-made evidence: supported, unsupported, fabricated, contradictions, confidence. */
class VerifierTest {

  private final Verifier verifier = new Verifier(0.5, true);

  private static Map<String, EvidenceChunk> evidence() {
    Map<String, EvidenceChunk> m = new LinkedHashMap<>();
    EvidenceChunk a = new EvidenceChunk("refund-policy", 1, "Refund policy",
        "Refunds are processed within 14 days after the returned item arrives at the warehouse.", 0.9, 0, 0);
    EvidenceChunk b = new EvidenceChunk("shipping", 0, "Shipping times",
        "Standard shipping takes 3 to 5 business days within the country.", 0.5, 1, 0);
    m.put(a.key(), a);
    m.put(b.key(), b);
    return m;
  }

  @Test
  void supportedAnswerShipsVerified() {
    Verification v = verifier.verify("Refunds are processed within 14 days after the item arrives. [cite:refund-policy:1] "
        + "Standard shipping takes 3 to 5 business days [cite:shipping:0].", evidence());
    assertEquals(Verification.SHIP, v.decision());
    assertTrue(v.verified());
    assertEquals(2, v.sentences().size());
    // sentence 1 content tokens: refund, process, within, 14, days, item, arrive -> 7, all in the chunk -> 1.0
    assertEquals(1.0, v.sentences().get(0).support(), 1e-9);
    assertEquals(1.0, v.sentences().get(1).support(), 1e-9);
    // confidence = mean support (1.0) x sqrt(2/2)
    assertEquals(1.0, v.confidence(), 1e-9);
    assertEquals(2, v.citations().size());
    assertEquals("Refund policy", v.citations().getJsonObject(0).getString("title"));
    assertTrue(v.citations().getJsonObject(0).getString("snippet").startsWith("Refunds are processed"));
  }

  @Test
  void unsupportedSentenceIsDroppedOnRevise() {
    Verification v = verifier.verify("Refunds are processed within 14 days. [cite:refund-policy:1] "
        + "Refunds also include a free gift voucher and cashback bonus. [cite:refund-policy:1]", evidence());
    assertEquals(Verification.REVISE, v.decision());
    assertTrue(v.sentences().get(0).supported());
    assertFalse(v.sentences().get(1).supported());
    // "refunds also include a free gift voucher and cashback bonus": refund, include, free, gift, voucher, cashback,
    // bonus -> 7 tokens, only "refund" in the chunk -> 1/7
    assertEquals(1.0 / 7, v.sentences().get(1).support(), 1e-9);
    assertEquals("Refunds are processed within 14 days. [cite:refund-policy:1]", v.answer());
    // confidence = 1.0 x sqrt(1/2)
    assertEquals(Math.sqrt(0.5), v.confidence(), 1e-9);
    assertTrue(v.verified());
  }

  @Test
  void fabricatedCitationIsDroppedAndFlagged() {
    Verification v = verifier.verify("Refunds are processed within 14 days. [cite:refund-policy:1][cite:made-up:7] "
        + "Express delivery is free for everyone. [cite:ghost-doc:0]", evidence());
    assertEquals(List.of("made-up:7", "ghost-doc:0"), v.fabricated());
    assertEquals(Verification.REVISE, v.decision());
    assertEquals("only fabricated citations", v.sentences().get(1).reason());
    assertFalse(v.answer().contains("made-up"));
    assertFalse(v.answer().contains("ghost-doc"));
    assertEquals(1, v.citations().size());
    // the answer claimed support it does not have: not verified, though the fabricated parts were dropped
    assertFalse(v.verified());
  }

  @Test
  void nothingSupportedLoopsWithZeroConfidence() {
    Verification v = verifier.verify("The moon is made of cheese. [cite:shipping:0] Cats rule.", evidence());
    assertEquals(Verification.LOOP, v.decision());
    assertFalse(v.verified());
    assertEquals(0.0, v.confidence());
    assertEquals("no citation", v.sentences().get(1).reason());
  }

  @Test
  void unjustifiedAbsoluteAndContradictionAreFlagged() {
    Map<String, EvidenceChunk> ev = evidence();
    EvidenceChunk c = new EvidenceChunk("faq", 0, "FAQ", "Refunds are not processed within 14 days for digital goods.",
        0.3, 2, 1);
    ev.put(c.key(), c);
    Verification over = verifier.verify("Refunds are always processed within 14 days. [cite:refund-policy:1]", ev);
    assertEquals(1, over.overconfident().size());
    assertFalse(over.sentences().get(0).supported());
    Verification both = verifier.verify("Refunds are processed within 14 days. [cite:refund-policy:1] "
        + "Refunds are not processed within 14 days. [cite:faq:0]", ev);
    assertEquals(1, both.contradictions().size());
    assertFalse(both.verified());
    assertEquals(0.5, both.confidence(), 1e-9);
  }

  @Test
  void citationParsingHandlesMarkersAfterThePeriodAndColonsInIds() {
    List<Citations.CitedSentence> s = Citations.parse("First claim. [cite:a:b:2] Second claim [cite:c:0][cite:c:1].");
    assertEquals(2, s.size());
    assertEquals("First claim.", s.get(0).text());
    assertEquals(List.of("a:b:2"), s.get(0).citations());
    assertEquals("Second claim.", s.get(1).text());
    assertEquals(List.of("c:0", "c:1"), s.get(1).citations());
  }
}
