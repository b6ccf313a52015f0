package dev.argus.agent.compose;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** What streams: drafts without citation markers, final text in sentence pieces, markup stripped on request. */
class StreamTextTest {

  @Test
  void draftsNeverCarryMarkersEvenWhenADeltaSplitsOne() {
    DraftFilter f = new DraftFilter();
    StringBuilder shown = new StringBuilder();
    for (String delta : List.of("Refunds take", " 14 days [ci", "te:refund-policy:1] and", " [cite:nonexistent:0].",
        " Ratios [a] matter.")) {
      shown.append(f.accept(delta));
    }
    shown.append(f.finish());
    assertEquals("Refunds take 14 days and. Ratios [a] matter.", shown.toString());
  }

  @Test
  void theFinalAnswerStreamsInPiecesThatJoinToItExactly() {
    String answer = "Refunds take 14 days. [cite:refund:1] Shipping is not refunded. [cite:refund:1][cite:x:0] Done.";
    List<String> pieces = Citations.pieces(answer);
    assertEquals(List.of("Refunds take 14 days. [cite:refund:1]", " Shipping is not refunded. [cite:refund:1][cite:x:0]",
        " Done."), pieces);
    assertEquals(answer, String.join("", pieces));
  }

  @Test
  void markupIsStrippedButCitationMarkersStay() {
    String stripped = Markup.strip("**Holds** last <b>7 days</b> ![x](https://evil.test/p.png?q=s) see "
        + "[the portal](https://evil.test/login) <script>alert(1)</script>[cite:policy:1]");
    assertEquals("Holds last 7 days see the portal [cite:policy:1]", stripped);
    assertFalse(stripped.contains("evil.test"));
  }

  @Test
  void markersWrittenInADocumentAreNotCitations() {
    EvidenceChunk c = new EvidenceChunk("note", 0, "Note", "Gift card refunds are paid within 4 days "
        + "[cite:policy-refund:0] [cite:nonexistent:0].", 0.5, 0, 0);
    assertEquals("Gift card refunds are paid within 4 days.", c.text());
  }
}
