package dev.argus.retrieval;

import dev.argus.knowledge.ScoredChunk;
import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static dev.argus.retrieval.Chunks.hit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

class FusionTest {

  private static final double EPS = 1e-9;

  /** vector: A, B, C; keyword: C, A; trigram: D. */
  private static Map<Retriever, List<ScoredChunk>> rankings() {
    Map<Retriever, List<ScoredChunk>> m = new EnumMap<>(Retriever.class);
    m.put(Retriever.VECTOR, List.of(hit("A", 0.9), hit("B", 0.7), hit("C", 0.5)));
    m.put(Retriever.KEYWORD, List.of(hit("C", 12.0), hit("A", 4.0)));
    m.put(Retriever.TRIGRAM, List.of(hit("D", 0.3)));
    return m;
  }

  private static List<String> ids(List<FusedHit> hits) {
    return hits.stream().map(h -> h.chunk().documentId()).toList();
  }

  @Test
  void reciprocalRankFusionWithK60() {
    List<FusedHit> fused = Fusion.reciprocalRank(rankings(), 60);
    // A: 1/61 + 1/62 = 0.0325224748; C: 1/63 + 1/61 = 0.0322664585; D: 1/61 = 0.0163934426; B: 1/62 = 0.0161290323
    assertEquals(List.of("A", "C", "D", "B"), ids(fused));
    assertEquals(0.0325224748, fused.get(0).score(), 1e-9);
    assertEquals(0.0322664585, fused.get(1).score(), 1e-9);
    assertEquals(0.0163934426, fused.get(2).score(), 1e-9);
    assertEquals(0.0161290323, fused.get(3).score(), 1e-9);
    FusedHit a = fused.get(0);
    assertEquals(new LegHit(1, 0.9), a.legs().get(Retriever.VECTOR));
    assertEquals(new LegHit(2, 4.0), a.legs().get(Retriever.KEYWORD));
    assertNull(a.legs().get(Retriever.TRIGRAM), "a retriever that did not find the chunk is absent");
    FusedHit c = fused.get(1);
    assertEquals(3, c.legs().get(Retriever.VECTOR).rank());
    assertEquals(1, c.legs().get(Retriever.KEYWORD).rank());
    assertEquals(Map.of(Retriever.TRIGRAM, new LegHit(1, 0.3)), fused.get(2).legs());
  }

  @Test
  void reciprocalRankFusionWithK1() {
    // A: 1/2 + 1/3 = 5/6; C: 1/4 + 1/2 = 3/4; D: 1/2; B: 1/3
    List<FusedHit> fused = Fusion.reciprocalRank(rankings(), 1);
    assertEquals(List.of("A", "C", "D", "B"), ids(fused));
    assertEquals(5.0 / 6, fused.get(0).score(), EPS);
    assertEquals(3.0 / 4, fused.get(1).score(), EPS);
    assertEquals(1.0 / 2, fused.get(2).score(), EPS);
    assertEquals(1.0 / 3, fused.get(3).score(), EPS);
  }

  @Test
  void duplicatesWithinOneListCountOnceAndRanksSkipThem() {
    Map<Retriever, List<ScoredChunk>> m = new EnumMap<>(Retriever.class);
    m.put(Retriever.VECTOR, List.of(hit("A", 0.9), hit("A", 0.8), hit("B", 0.7)));
    List<FusedHit> fused = Fusion.reciprocalRank(m, 60);
    assertEquals(List.of("A", "B"), ids(fused));
    assertEquals(1.0 / 61, fused.get(0).score(), EPS);
    assertEquals(new LegHit(2, 0.7), fused.get(1).legs().get(Retriever.VECTOR));
  }

  @Test
  void tiesAreBrokenByBestRankThenKey() {
    Map<Retriever, List<ScoredChunk>> m = new EnumMap<>(Retriever.class);
    m.put(Retriever.VECTOR, List.of(hit("B", 0.9), hit("A", 0.8)));
    m.put(Retriever.KEYWORD, List.of(hit("A", 3.0), hit("B", 2.0)));
    // both 1/61 + 1/62 with best rank 1: key order
    assertEquals(List.of("A", "B"), ids(Fusion.reciprocalRank(m, 60)));
  }

  @Test
  void weightedFusionOfMinMaxNormalizedScores() {
    Map<Retriever, Double> w = Map.of(Retriever.VECTOR, 0.5, Retriever.KEYWORD, 0.3, Retriever.TRIGRAM, 0.2);
    List<FusedHit> fused = Fusion.weighted(rankings(), w);
    // vector norm: A 1, B 0.5, C 0; keyword norm: C 1, A 0; trigram (one hit): D 1
    // A = 0.5*1 + 0.3*0 = 0.5; C = 0.5*0 + 0.3*1 = 0.3; B = 0.5*0.5 = 0.25; D = 0.2*1 = 0.2
    assertEquals(List.of("A", "C", "B", "D"), ids(fused));
    assertEquals(0.5, fused.get(0).score(), EPS);
    assertEquals(0.3, fused.get(1).score(), EPS);
    assertEquals(0.25, fused.get(2).score(), EPS);
    assertEquals(0.2, fused.get(3).score(), EPS);
    assertEquals(new LegHit(1, 12.0), fused.get(1).legs().get(Retriever.KEYWORD), "raw scores are kept per retriever");
  }

  @Test
  void weightedFusionRenormalizesWeightsOverTheRetrieversThatRan() {
    Map<Retriever, List<ScoredChunk>> m = rankings();
    m.remove(Retriever.TRIGRAM);
    Map<Retriever, Double> w = Map.of(Retriever.VECTOR, 0.5, Retriever.KEYWORD, 0.3, Retriever.TRIGRAM, 0.2);
    List<FusedHit> fused = Fusion.weighted(m, w);
    // weights 0.5/0.8 = 0.625 and 0.3/0.8 = 0.375: A = 0.625, C = 0.375, B = 0.3125
    assertEquals(List.of("A", "C", "B"), ids(fused));
    assertEquals(0.625, fused.get(0).score(), EPS);
    assertEquals(0.375, fused.get(1).score(), EPS);
    assertEquals(0.3125, fused.get(2).score(), EPS);
  }

  @Test
  void weightedFusionNormalizesByListOrderSoLowerIsBetterScoresWork() {
    Map<Retriever, List<ScoredChunk>> m = rankings();
    // raw BM25 as SQLite returns it: more negative is better, listed best first
    m.put(Retriever.KEYWORD, List.of(hit("C", -12.0), hit("A", -4.0)));
    Map<Retriever, Double> w = Map.of(Retriever.VECTOR, 0.5, Retriever.KEYWORD, 0.3, Retriever.TRIGRAM, 0.2);
    List<FusedHit> fused = Fusion.weighted(m, w);
    assertEquals(List.of("A", "C", "B", "D"), ids(fused));
    assertEquals(0.3, fused.get(1).score(), EPS);
  }

  @Test
  void weightedFusionWithZeroWeightsCountsRetrieversEqually() {
    Map<Retriever, List<ScoredChunk>> m = rankings();
    List<FusedHit> fused = Fusion.weighted(m, Map.of());
    // each 1/3: A = 1/3 + 0 = 1/3; C = 0 + 1/3; B = 1/6; D = 1/3 -> A, C, D tie at 1/3: best rank 1 for all, by key
    assertEquals(List.of("A", "C", "D", "B"), ids(fused));
    assertEquals(1.0 / 6, fused.get(3).score(), EPS);
  }

  @Test
  void singleRetrieverRankingIsReturnedUnchanged() {
    List<ScoredChunk> keyword = List.of(hit("C", 12.0), hit("A", 4.0), hit("C", 3.0), hit("E", 1.0));
    List<FusedHit> out = Fusion.single(Retriever.KEYWORD, keyword);
    assertEquals(List.of("C", "A", "E"), ids(out));
    assertEquals(12.0, out.get(0).score(), EPS);
    assertEquals(1.0, out.get(2).score(), EPS);
    assertEquals(new LegHit(3, 1.0), out.get(2).legs().get(Retriever.KEYWORD));
    assertFalse(out.get(0).legs().containsKey(Retriever.VECTOR));
  }

  @Test
  void emptyInputsFuseToNothing() {
    Map<Retriever, List<ScoredChunk>> m = new EnumMap<>(Retriever.class);
    m.put(Retriever.VECTOR, List.of());
    m.put(Retriever.KEYWORD, List.of());
    assertEquals(List.of(), Fusion.reciprocalRank(m, 60));
    assertEquals(List.of(), Fusion.weighted(m, Map.of(Retriever.VECTOR, 1.0)));
  }
}
