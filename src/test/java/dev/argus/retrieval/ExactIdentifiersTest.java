package dev.argus.retrieval;

import dev.argus.knowledge.ScoredChunk;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The exact-identifier signal as a pure function: which tokens are identifiers, who carries them, the new order. */
class ExactIdentifiersTest {

  private static ScoredChunk chunk(String doc, String title, JsonObject metadata) {
    return new ScoredChunk(doc, "default", title, 0, 1, "text of " + doc, 0.0, metadata);
  }

  private static FusedHit hit(ScoredChunk chunk, double score) {
    return new FusedHit(chunk, score, Map.of(Retriever.KEYWORD, new LegHit(1, score)));
  }

  @Test
  void identifierLikeTokensAreIdentifiersAndOrdinaryWordsAreNot() {
    for (String id : List.of("SLR-10472", "dfp-7f3a9c21", "INV2025001", "k.marlow@example.com", "203.0.113.45",
        "+1-555-0142", "CD44v6", "rs10818488")) {
      assertTrue(ExactIdentifiers.isIdentifier(id), id);
    }
    for (String word : List.of("refund", "p53", "IL-6", "COVID-19", "100mg", "1990s", "2025", "2025-05-14", "30",
        "H1N1", "x@", "e-mail")) {
      assertFalse(ExactIdentifiers.isIdentifier(word), word);
    }
  }

  @Test
  void identifiersAreReadFromTheQueryWithoutSurroundingPunctuationOrRepeats() {
    assertEquals(List.of(List.of("slr", "10472"), List.of("k", "marlow", "example", "com")),
        ExactIdentifiers.identifiers("what about (SLR-10472), slr-10472 and k.marlow@example.com?"));
    assertEquals(List.of(), ExactIdentifiers.identifiers("chargeback thresholds for new sellers in 2025"));
  }

  @Test
  void aDocumentCarriesAnIdentifierInItsIdTitleOrMetadataAsWholeParts() {
    List<List<String>> ids = ExactIdentifiers.identifiers("SLR-10472");
    assertEquals(1, ExactIdentifiers.carried(chunk("case-slr-10472-synthetic-seller", "Case", new JsonObject()), ids));
    assertEquals(1, ExactIdentifiers.carried(chunk("c1", "Case SLR-10472 - synthetic seller", null), ids));
    assertEquals(1, ExactIdentifiers.carried(chunk("c2", "Case", new JsonObject().put("seller", "slr 10472")), ids));
    assertEquals(1, ExactIdentifiers.carried(chunk("c3", "Case",
        new JsonObject().put("sellers", new JsonArray().add("SLR-10588").add("SLR-10472"))), ids));
    // A longer number, the parts apart, or the identifier only in the text: not carried.
    assertEquals(0, ExactIdentifiers.carried(chunk("case-slr-104721", "Case SLR 10472x", null), ids));
    assertEquals(0, ExactIdentifiers.carried(chunk("slr-x-10472", "Seller", new JsonObject().put("n", 10472)), ids));
    assertEquals(0, ExactIdentifiers.carried(new ScoredChunk("c4", "default", "Case SLR-10588", 0, 1,
        "linked to SLR-10472", 0, null), ids));
  }

  @Test
  void documentsCarryingTheQueryIdentifiersComeFirstAndTheRestKeepTheirOrder() {
    ScoredChunk citing = chunk("case-slr-10588", "Case SLR-10588 - linked account", new JsonObject());
    ScoredChunk own0 = new ScoredChunk("case-slr-10472", "default", "Case SLR-10472", 0, 3, "a", 0, null);
    ScoredChunk own2 = new ScoredChunk("case-slr-10472", "default", "Case SLR-10472", 2, 3, "b", 0, null);
    ScoredChunk glossary = chunk("glossary", "Glossary", new JsonObject());
    List<FusedHit> fused = List.of(hit(citing, 0.96), hit(glossary, 0.93), hit(own0, 0.91), hit(own2, 0.80));

    List<FusedHit> promoted = ExactIdentifiers.promote("SLR-10472", fused);

    // Hand-computed: the two chunks of case-slr-10472 carry one identifier each: 0.91 + 1 = 1.91 and 0.80 + 1 =
    // 1.80; the others keep 0.96 and 0.93 and their relative order.
    assertEquals(List.of("case-slr-10472#0", "case-slr-10472#2", "case-slr-10588#0", "glossary#0"),
        promoted.stream().map(FusedHit::key).toList());
    assertEquals(1.91, promoted.get(0).score(), 1e-9);
    assertEquals(1.80, promoted.get(1).score(), 1e-9);
    assertEquals(0.96, promoted.get(2).score(), 1e-9);
    assertEquals(fused.get(2).legs(), promoted.get(0).legs(), "the retrievers' own ranks and scores are kept");
  }

  @Test
  void aDocumentCarryingMoreOfTheQueryIdentifiersRanksHigher() {
    ScoredChunk one = chunk("case-a", "Case SLR-10472", null);
    ScoredChunk both = chunk("case-b", "Case SLR-10472 and SLR-10588", null);
    List<FusedHit> promoted = ExactIdentifiers.promote("SLR-10472 SLR-10588", List.of(hit(one, 0.9), hit(both, 0.2)));
    // 0.9 + 1 = 1.9 against 0.2 + 2 = 2.2.
    assertEquals(List.of("case-b#0", "case-a#0"), promoted.stream().map(FusedHit::key).toList());
  }

  @Test
  void withoutIdentifiersOrCarriersTheRankingIsReturnedUnchanged() {
    List<FusedHit> fused = List.of(hit(chunk("a", "Refund policy", null), 0.9), hit(chunk("b", "Case", null), 0.5));
    assertSame(fused, ExactIdentifiers.promote("refund abuse", fused));
    assertSame(fused, ExactIdentifiers.promote("SLR-99999", fused));
    assertEquals(List.of(), ExactIdentifiers.promote("SLR-10472", List.of()));
  }
}
