package dev.argus.eval.score;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every chat metric on hand-made runs, the expected values computed by hand in the comments. */
class ChatScoresTest {

  private static final double EPS = 1e-9;

  /**
   * Question terms: {refund, window, card, payments} (4; "what", "is", "the", "for" are stop words).
   * Context (retrieval order):
   *   c0 = policy:0 "The refund window for card payments is 30 days."  → {refund, window, card, payments, 30, days}
   *   c1 = policy:1 "Refunds are issued to the original card."          → {refunds, issued, original, card}
   *   c2 = faq:4    "Shipping takes five days."                          → {shipping, takes, five, days}
   * Answer: "The refund window for card payments is 30 days. [cite:policy:0] Refunds go to the original card.
   *          [cite:policy:1][cite:faq:4] Weather is sunny."
   *   s1 {refund, window, card, payments, 30, days} cites policy:0
   *   s2 {refunds, go, original, card} cites policy:1, faq:4
   *   s3 {weather, sunny} cites nothing
   */
  private static ChatRunView run() {
    return new ChatRunView("r1", "assistant", "What is the refund window for card payments?",
        "The refund window for card payments is 30 days. [cite:policy:0] Refunds go to the original card. "
            + "[cite:policy:1][cite:faq:4] Weather is sunny.",
        "answer", List.of(
            new ChatRunView.ContextChunk("policy:0", "The refund window for card payments is 30 days."),
            new ChatRunView.ContextChunk("policy:1", "Refunds are issued to the original card."),
            new ChatRunView.ContextChunk("faq:4", "Shipping takes five days.")));
  }

  @Test
  void termsDropStopWordsAndShortTokens() {
    assertEquals(Set.of("refund", "window", "card", "payments"), Terms.of("What is the refund window for card payments?"));
    // "s" and "1" are one character, "a" is a stop word
    assertEquals(List.of("paid", "30"), List.copyOf(Terms.of("S-1 paid 30 a")));
  }

  @Test
  void sentencesCarryTheirMarkers() {
    List<ChatRunView.Sentence> s = run().sentences();
    assertEquals(3, s.size());
    assertEquals(List.of("policy:0"), s.get(0).citations());
    assertEquals(List.of("policy:1", "faq:4"), s.get(1).citations());
    assertEquals("Weather is sunny.", s.get(2).text());
    assertEquals(List.of(), s.get(2).citations());
  }

  @Test
  void contextRelevanceIsTheMeanShareOfQuestionTermsPerChunk() {
    // c0 holds 4/4 question terms, c1 holds {card} 1/4, c2 holds 0/4 → (1 + 0.25 + 0) / 3 = 0.416666...
    assertEquals(1.25 / 3, ChatScores.score(run()).get(Metric.CONTEXT_RELEVANCE), EPS);
  }

  @Test
  void answerRelevanceIsTheShareOfQuestionTermsInTheAnswer() {
    // answer terms hold refund, window, card, payments → 4/4
    assertEquals(1.0, ChatScores.score(run()).get(Metric.ANSWER_RELEVANCE), EPS);
  }

  @Test
  void groundednessCountsSentencesSupportedByTheirCitations() {
    // s1: policy:0 holds 6/6 → supported. s2: policy:1 ∪ faq:4 holds {refunds, original, card} = 3/4 ≥ 0.5 → supported.
    // s3: no citation → unsupported. 2/3.
    assertEquals(2.0 / 3, ChatScores.score(run()).get(Metric.GROUNDEDNESS), EPS);
  }

  @Test
  void faithfulnessIsTheShareOfAnswerTermsInTheContext() {
    // answer terms: refund window card payments 30 days refunds go original weather sunny = 11 distinct
    // in context: refund window card payments 30 days refunds original = 8 → 8/11
    assertEquals(8.0 / 11, ChatScores.score(run()).get(Metric.FAITHFULNESS), EPS);
  }

  @Test
  void citationPrecisionCountsSupportingPairs() {
    // pairs: (s1, policy:0) 6/6 ok; (s2, policy:1) 3/4 ok; (s2, faq:4) 0/4 not → 2/3
    assertEquals(2.0 / 3, ChatScores.score(run()).get(Metric.CITATION_PRECISION), EPS);
  }

  @Test
  void contextPrecisionIsTheAveragePrecisionOfCitedChunks() {
    // all three retrieved chunks are cited: P@1 = 1, P@2 = 1, P@3 = 1 → 1.0
    assertEquals(1.0, ChatScores.score(run()).get(Metric.CONTEXT_PRECISION), EPS);
    // relevant at ranks 2 and 4 of 4: (1/2 + 2/4) / 2 = 0.5
    List<ChatRunView.ContextChunk> ctx = List.of(new ChatRunView.ContextChunk("a:0", "x"),
        new ChatRunView.ContextChunk("b:0", "x"), new ChatRunView.ContextChunk("c:0", "x"),
        new ChatRunView.ContextChunk("d:0", "x"));
    assertEquals(0.5, ChatScores.averagePrecision(ctx, Set.of("b:0", "d:0")), EPS);
  }

  @Test
  void coherenceCountsLinkedNonRepeatedSentences() {
    // s2 shares "card" with s1 → linked; s3 {weather, sunny} shares nothing → 1 of 2 later sentences
    assertEquals(0.5, ChatScores.score(run()).get(Metric.COHERENCE), EPS);
    // a repeated sentence is not coherent: "Cards work. Cards work." → 0/1
    ChatRunView repeat = new ChatRunView("r", "p", "cards", "Cards work. Cards work.", "answer", List.of());
    assertEquals(0.0, ChatScores.score(repeat).get(Metric.COHERENCE), EPS);
  }

  @Test
  void aggregateIsTheMeanOfTheSevenScores() {
    // (1.25/3 + 1 + 2/3 + 8/11 + 2/3 + 1 + 0.5) / 7
    double expected = (1.25 / 3 + 1 + 2.0 / 3 + 8.0 / 11 + 2.0 / 3 + 1 + 0.5) / 7;
    assertEquals(expected, ChatScores.score(run()).get(Metric.AGGREGATE), EPS);
  }

  @Test
  void aRefusalIsScoredOnItsContextOnly() {
    ChatRunView refused = new ChatRunView("r", "p", "refund window", "I cannot answer that.", "no_answer",
        List.of(new ChatRunView.ContextChunk("d:0", "refund policy")));
    Scorecard card = ChatScores.score(refused);
    // context relevance: {refund} of {refund, window} = 0.5; aggregate = the only metric
    assertEquals(0.5, card.get(Metric.CONTEXT_RELEVANCE), EPS);
    assertEquals(0.5, card.get(Metric.AGGREGATE), EPS);
    assertNull(card.get(Metric.ANSWER_RELEVANCE));
  }

  @Test
  void smallTalkIsNotScored() {
    assertTrue(ChatScores.score(new ChatRunView("r", "p", "hello", "Hello!", "smalltalk", List.of())).values().isEmpty());
  }

  @Test
  void theViewReadsARunRecord() {
    JsonObject run = new JsonObject().put("runId", "r9").put("profile", "assistant")
        .put("input", new JsonObject().put("question", "and for cards?"))
        .put("phases", new JsonObject().put("think", new JsonObject().put("output",
            new JsonObject().put("standalone", "refund window for cards"))))
        .put("evidence", new JsonArray()
            .add(new JsonObject().put("index", 0).put("tool", "knowledge_search").put("success", true)
                .put("data", new JsonObject().put("results", new JsonArray()
                    .add(new JsonObject().put("documentId", "policy").put("chunkIndex", 0).put("text", "A")
                        .put("neighbours", new JsonArray().add(new JsonObject().put("index", 1).put("text", "B"))))
                    .add(new JsonObject().put("documentId", "policy").put("chunkIndex", 0).put("text", "A")))))
            .add(new JsonObject().put("index", 1).put("tool", "knowledge_search").put("success", false)
                .put("data", new JsonObject().put("results", new JsonArray()
                    .add(new JsonObject().put("documentId", "x").put("chunkIndex", 0).put("text", "X"))))))
        .put("result", new JsonObject().put("answer", "A. [cite:policy:0]").put("kind", "answer"));
    ChatRunView v = ChatRunView.fromRun(run);
    assertEquals("refund window for cards", v.question());
    // policy:0 once (deduplicated), its neighbour policy:1; the failed call contributes nothing
    assertEquals(List.of("policy:0", "policy:1"), v.context().stream().map(ChatRunView.ContextChunk::key).toList());
    assertEquals("assistant", v.profile());
  }
}
