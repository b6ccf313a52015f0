package dev.argus.retrieval;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.argus.retrieval.Chunks.hit;
import static org.junit.jupiter.api.Assertions.assertEquals;

class MmrTest {

  private static FusedHit fused(String id, double score, String text) {
    return new FusedHit(hit(id, score, text), score, Map.of());
  }

  private static final List<FusedHit> CANDIDATES = List.of(
      fused("h1", 1.0, "alpha beta gamma delta"),
      fused("h2", 0.9, "Alpha, beta; gamma delta!"),
      fused("h3", 0.5, "zeta theta kappa lambda"));

  private static List<String> ids(List<FusedHit> hits) {
    return hits.stream().map(h -> h.chunk().documentId()).toList();
  }

  @Test
  void jaccardOverTokenSets() {
    assertEquals(0.5, Mmr.similarity("alpha beta gamma", "beta gamma delta"), 1e-12);
    assertEquals(1.0, Mmr.similarity("Alpha BETA", "beta, alpha"), 1e-12);
    // tokens shorter than 3 characters are ignored: {alpha} vs {alpha}
    assertEquals(1.0, Mmr.similarity("an alpha", "of alpha"), 1e-12);
    assertEquals(0.0, Mmr.similarity("", ""), 1e-12);
  }

  @Test
  void diversityPushesNearDuplicateDown() {
    // relevance: h1 1, h2 0.8, h3 0. lambda 0.5.
    // step 1: h1 (0.5). step 2: h2 = 0.5*0.8 - 0.5*1 = -0.1, h3 = 0 - 0 = 0 -> h3. step 3: h2.
    assertEquals(List.of("h1", "h3", "h2"), ids(Mmr.rerank(CANDIDATES, 3, 0.5)));
  }

  @Test
  void highLambdaKeepsRelevanceOrder() {
    // lambda 0.7, step 2: h2 = 0.7*0.8 - 0.3*1 = 0.26 > h3 = 0 -> fused order kept
    assertEquals(List.of("h1", "h2", "h3"), ids(Mmr.rerank(CANDIDATES, 3, 0.7)));
    assertEquals(List.of("h1", "h2", "h3"), ids(Mmr.rerank(CANDIDATES, 3, 1.0)));
  }

  @Test
  void cutsToKAndKeepsScores() {
    List<FusedHit> out = Mmr.rerank(CANDIDATES, 2, 0.5);
    assertEquals(List.of("h1", "h3"), ids(out));
    assertEquals(0.5, out.get(1).score(), 1e-12);
    assertEquals(List.of(), Mmr.rerank(List.of(), 5, 0.5));
  }
}
