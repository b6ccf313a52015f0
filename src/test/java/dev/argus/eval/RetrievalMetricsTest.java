package dev.argus.eval;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Every expected value below is worked out by hand in the comment next to it.
 *
 * <p>Main example: ranking d1 d2 d3 d4 d5; judged grades d2=2, d4=1, d9=3 (d9 never retrieved), so the
 * relevant set is {d2, d4, d9} (3 documents) and d2 sits at rank 2, d4 at rank 4.
 */
class RetrievalMetricsTest {

  private static final double EPS = 1e-6;
  private static final List<String> RANKED = List.of("d1", "d2", "d3", "d4", "d5");
  private static final Map<String, Integer> GRADES = Map.of("d2", 2, "d4", 1, "d9", 3);

  @Test
  void hitRate() {
    // top-1 = {d1}: no relevant document -> 0
    assertEquals(0.0, RetrievalMetrics.hitRate(RANKED, GRADES, 1), EPS);
    // top-2 = {d1, d2}: d2 is relevant -> 1
    assertEquals(1.0, RetrievalMetrics.hitRate(RANKED, GRADES, 2), EPS);
  }

  @Test
  void mrr() {
    // first relevant is d2 at rank 2 -> 1/2
    assertEquals(0.5, RetrievalMetrics.mrr(RANKED, GRADES), EPS);
    assertEquals(0.5, RetrievalMetrics.mrr(RANKED, GRADES, 10), EPS);
    // cut at 1: rank 2 is beyond the cut -> 0
    assertEquals(0.0, RetrievalMetrics.mrr(RANKED, GRADES, 1), EPS);
    // ranking a b c with only c relevant -> 1/3
    assertEquals(1.0 / 3, RetrievalMetrics.mrr(List.of("a", "b", "c"), Map.of("c", 1)), EPS);
  }

  @Test
  void recall() {
    // top-5 holds d2 and d4 of the 3 relevant -> 2/3 = 0.666667
    assertEquals(0.666667, RetrievalMetrics.recall(RANKED, GRADES, 5), EPS);
    // top-3 holds only d2 -> 1/3 = 0.333333
    assertEquals(0.333333, RetrievalMetrics.recall(RANKED, GRADES, 3), EPS);
    // top-100 of a 5-long ranking is still d2, d4 -> 2/3
    assertEquals(0.666667, RetrievalMetrics.recall(RANKED, GRADES, 100), EPS);
  }

  @Test
  void precision() {
    // top-5: 2 relevant of 5 -> 0.4
    assertEquals(0.4, RetrievalMetrics.precision(RANKED, GRADES, 5), EPS);
    // top-3: 1 relevant of 3 -> 0.333333
    assertEquals(0.333333, RetrievalMetrics.precision(RANKED, GRADES, 3), EPS);
    // top-10 with only 5 results: missing positions are misses -> 2/10 = 0.2
    assertEquals(0.2, RetrievalMetrics.precision(RANKED, GRADES, 10), EPS);
  }

  @Test
  void ndcgGraded() {
    // DCG@5  = 2/log2(3) + 1/log2(5) = 1.2618595 + 0.4306766 = 1.6925361
    // IDCG@5 = grades sorted 3,2,1: 3/log2(2) + 2/log2(3) + 1/log2(4) = 3 + 1.2618595 + 0.5 = 4.7618595
    // nDCG@5 = 1.6925361 / 4.7618595 = 0.355436
    assertEquals(0.355436, RetrievalMetrics.ndcg(RANKED, GRADES, 5), EPS);
    // DCG@2  = 0/log2(2) + 2/log2(3) = 1.2618595
    // IDCG@2 = 3/1 + 2/log2(3) = 4.2618595
    // nDCG@2 = 1.2618595 / 4.2618595 = 0.296082
    assertEquals(0.296082, RetrievalMetrics.ndcg(RANKED, GRADES, 2), EPS);
    // DCG@1 = 0 (d1 not relevant) -> 0
    assertEquals(0.0, RetrievalMetrics.ndcg(RANKED, GRADES, 1), EPS);
  }

  @Test
  void ndcgIdealAndBinary() {
    // the ideal order d9 d2 d4 has DCG = IDCG -> 1
    assertEquals(1.0, RetrievalMetrics.ndcg(List.of("d9", "d2", "d4"), GRADES, 10), EPS);
    // binary: a b c with c=1: DCG = 1/log2(4) = 0.5, IDCG = 1/log2(2) = 1 -> 0.5
    assertEquals(0.5, RetrievalMetrics.ndcg(List.of("a", "b", "c"), Map.of("c", 1), 3), EPS);
    // swapped grades: d4(1) before d2(2): DCG = 1/1 + 2/log2(3) = 2.2618595; IDCG over {2,1} = 2 + 1/log2(3)
    // = 2.6309298 -> 0.859719
    assertEquals(0.859719, RetrievalMetrics.ndcg(List.of("d4", "d2"), Map.of("d2", 2, "d4", 1), 10), EPS);
  }

  @Test
  void duplicatesCountOnceAtFirstPosition() {
    // d1 d1 d2 -> distinct d1 d2: d2 is at rank 2 -> MRR 1/2, hit@2 = 1, precision@2 = 1/2
    List<String> ranked = List.of("d1", "d1", "d2");
    Map<String, Integer> grades = Map.of("d2", 1);
    assertEquals(0.5, RetrievalMetrics.mrr(ranked, grades), EPS);
    assertEquals(1.0, RetrievalMetrics.hitRate(ranked, grades, 2), EPS);
    assertEquals(0.5, RetrievalMetrics.precision(ranked, grades, 2), EPS);
    // a relevant id repeated is counted once: x x with x=1 -> recall@2 = 1/1, precision@2 = 1/2
    assertEquals(1.0, RetrievalMetrics.recall(List.of("x", "x"), Map.of("x", 1), 2), EPS);
    assertEquals(0.5, RetrievalMetrics.precision(List.of("x", "x"), Map.of("x", 1), 2), EPS);
  }

  @Test
  void zeroGradesAndNoRelevantDocuments() {
    // grade 0 is "judged not relevant": a(0) b(1): first relevant at rank 2 -> MRR 0.5; recall@1 = 0/1
    Map<String, Integer> grades = Map.of("a", 0, "b", 1);
    assertEquals(0.5, RetrievalMetrics.mrr(List.of("a", "b"), grades), EPS);
    assertEquals(0.0, RetrievalMetrics.recall(List.of("a", "b"), grades, 1), EPS);
    // no relevant judged document at all -> every metric 0
    QueryScores none = QueryScores.of(List.of("a"), Map.of("a", 0), 10);
    assertEquals(new QueryScores(10, 0, 0, 0, 0, 0), none);
    // empty ranking -> 0 everywhere
    assertEquals(0.0, RetrievalMetrics.ndcg(List.of(), GRADES, 10), EPS);
    assertEquals(0.0, RetrievalMetrics.mrr(List.of(), GRADES), EPS);
  }

  @Test
  void rejectsNonPositiveK() {
    assertThrows(IllegalArgumentException.class, () -> RetrievalMetrics.ndcg(RANKED, GRADES, 0));
    assertThrows(IllegalArgumentException.class, () -> RetrievalMetrics.precision(RANKED, GRADES, -1));
  }

  @Test
  void meanOverQueries() {
    // query 1 = main example at k=5: hit 1, mrr 0.5, ndcg 0.355436, recall 0.666667, precision 0.4
    // query 2 = a b c with c=1 at k=5: hit 1, mrr 1/3, ndcg 0.5, recall 1, precision 1/5 = 0.2
    // means: hit 1, mrr (0.5+0.333333)/2 = 0.416667, ndcg (0.355436+0.5)/2 = 0.427718,
    //        recall (0.666667+1)/2 = 0.833333, precision (0.4+0.2)/2 = 0.3
    QueryScores mean = QueryScores.mean(List.of(
        QueryScores.of(RANKED, GRADES, 5),
        QueryScores.of(List.of("a", "b", "c"), Map.of("c", 1), 5)), 5);
    assertEquals(1.0, mean.hitRate(), EPS);
    assertEquals(0.416667, mean.mrr(), EPS);
    assertEquals(0.427718, mean.ndcg(), EPS);
    assertEquals(0.833333, mean.recall(), EPS);
    assertEquals(0.3, mean.precision(), EPS);
  }

  @Test
  void percentilesNearestRank() {
    // sorted 10..100 (n=10): p50 -> rank ceil(5) = 5 -> 50; p95 -> ceil(9.5) = 10 -> 100; p90 -> 9 -> 90
    List<Double> sample = List.of(70.0, 10.0, 100.0, 40.0, 20.0, 90.0, 30.0, 60.0, 50.0, 80.0);
    assertEquals(50.0, Percentiles.of(sample, 50), EPS);
    assertEquals(100.0, Percentiles.of(sample, 95), EPS);
    assertEquals(90.0, Percentiles.of(sample, 90), EPS);
    // one value: every percentile is that value; empty -> 0
    assertEquals(7.0, Percentiles.of(List.of(7.0), 50), EPS);
    assertEquals(0.0, Percentiles.of(List.of(), 95), EPS);
  }
}
