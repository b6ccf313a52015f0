package dev.argus.ingest;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SentenceChunkerTest {

  @Test
  void keepsAbbreviationsAndDecimalsInsideSentences() {
    List<String> sentences = SentenceSplitter.split("Sellers in the U.S. Market are checked, e.g. by Dr. Smith. "
        + "The score rose to 3.5 points. Is it fraud? Yes!").stream().map(SentenceSplitter.Sentence::text).toList();
    assertEquals(List.of("Sellers in the U.S. Market are checked, e.g. by Dr. Smith.", "The score rose to 3.5 points.",
        "Is it fraud?", "Yes!"), sentences);
  }

  @Test
  void lineBreaksEndSentences() {
    List<SentenceSplitter.Sentence> sentences = SentenceSplitter.split("Heading.\n\nFirst one. Second one\nList item");
    assertEquals(List.of("Heading.", "First one.", "Second one", "List item"),
        sentences.stream().map(SentenceSplitter.Sentence::text).toList());
    assertEquals(List.of(true, true, false, true),
        sentences.stream().map(SentenceSplitter.Sentence::startsParagraph).toList());
  }

  /** Ten sentences of exactly 20 characters each ("Sentence number 00."... padded). */
  private static String tenSentences() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 10; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      sb.append(String.format("Sentence number %02d.", i)); // 19 chars
    }
    return sb.toString();
  }

  @Test
  void cutsAtSentenceBoundariesWithinTargetAndOverlaps() {
    // each sentence is 19 chars; joined with a space. Target 60: three sentences = 59 chars, four = 79.
    SentenceChunker chunker = new SentenceChunker(60, 100, 1);
    List<String> chunks = chunker.chunk(tenSentences());
    // chunk 0: s0 s1 s2; then overlap s2 + s3 s4 (59); overlap s4 + s5 s6; overlap s6 + s7 s8; overlap s8 + s9
    assertEquals(List.of(
        "Sentence number 00. Sentence number 01. Sentence number 02.",
        "Sentence number 02. Sentence number 03. Sentence number 04.",
        "Sentence number 04. Sentence number 05. Sentence number 06.",
        "Sentence number 06. Sentence number 07. Sentence number 08.",
        "Sentence number 08. Sentence number 09."), chunks);
    for (String c : chunks) {
      assertTrue(c.length() <= 60, c);
      assertTrue(c.endsWith("."), "ends at a sentence boundary: " + c);
    }
  }

  @Test
  void overlapOfTwoSentencesAndNoOverlap() {
    List<String> two = new SentenceChunker(80, 100, 2).chunk(tenSentences());
    // four sentences = 79 chars; next chunks start with the previous chunk's last two sentences
    assertEquals("Sentence number 00. Sentence number 01. Sentence number 02. Sentence number 03.", two.get(0));
    assertTrue(two.get(1).startsWith("Sentence number 02. Sentence number 03. Sentence number 04."), two.get(1));
    List<String> none = new SentenceChunker(80, 100, 0).chunk(tenSentences());
    assertEquals(List.of(
        "Sentence number 00. Sentence number 01. Sentence number 02. Sentence number 03.",
        "Sentence number 04. Sentence number 05. Sentence number 06. Sentence number 07.",
        "Sentence number 08. Sentence number 09."), none);
  }

  @Test
  void everySentenceAppearsAndOrderIsKept() {
    List<String> chunks = new SentenceChunker(50, 80, 2).chunk(tenSentences());
    String all = String.join(" ", chunks);
    int last = -1;
    for (int i = 0; i < 10; i++) {
      int at = all.indexOf(String.format("Sentence number %02d.", i));
      assertTrue(at > last, "sentence " + i + " in order");
      last = at;
    }
  }

  @Test
  void splitsOverLongSentenceAtWordBoundariesUnderTheMax() {
    StringBuilder sb = new StringBuilder("Short start. ");
    for (int i = 0; i < 60; i++) {
      sb.append("word").append(i).append(' ');
    }
    sb.append("end. Short tail.");
    SentenceChunker chunker = new SentenceChunker(100, 150, 1);
    List<String> chunks = chunker.chunk(sb.toString());
    assertTrue(chunks.size() >= 3, chunks.toString());
    for (String c : chunks) {
      assertTrue(c.length() <= 150, c.length() + ": " + c);
      assertFalse(c.matches(".*\\bwor$|^d\\d.*"), "never cuts inside a word: " + c);
    }
    String joined = String.join(" ", chunks);
    for (int i = 0; i < 60; i++) {
      assertTrue(joined.contains("word" + i + " ") || joined.contains("word" + i + "\n") || joined.endsWith("word" + i),
          "word" + i + " kept whole");
    }
    assertTrue(chunks.get(chunks.size() - 1).endsWith("Short tail."));
  }

  @Test
  void singleHugeWordIsCutAtTheMax() {
    List<String> pieces = new SentenceChunker(10, 20, 0).splitLong("x".repeat(45));
    assertEquals(List.of("x".repeat(20), "x".repeat(20), "x".repeat(5)), pieces);
  }

  @Test
  void shortTextIsOneChunkAndBlankIsNone() {
    assertEquals(List.of("Just one line."), new SentenceChunker(1000, 2000, 2).chunk("  Just one line.  "));
    assertEquals(List.of(), new SentenceChunker(1000, 2000, 2).chunk(" \n\n "));
  }

  @Test
  void defaultsKeepChunksBetweenTargetAndMax() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 400; i++) {
      sb.append("Account ").append(i).append(" showed a velocity spike of ").append(i % 7).append(".5 times the norm. ");
      if (i % 9 == 0) {
        sb.append("\n\n");
      }
    }
    List<String> chunks = new SentenceChunker(1000, 2000, 2).chunk(sb.toString());
    assertTrue(chunks.size() > 10);
    for (int i = 0; i < chunks.size(); i++) {
      assertTrue(chunks.get(i).length() <= 1000, "chunk " + i + " is " + chunks.get(i).length());
      if (i < chunks.size() - 1) {
        assertTrue(chunks.get(i).length() > 900, "chunk " + i + " is filled to near the target: " + chunks.get(i).length());
      }
    }
  }
}
