package dev.argus.knowledge.sqlite;

import dev.argus.knowledge.MetadataCondition;
import dev.argus.knowledge.SearchFilter;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The in-memory index alone: kernels agree with a brute-force reference; removal keeps the matrix right. */
class VectorIndexTest {

  private static final int DIM = 37; // not a multiple of any SIMD width: exercises the tail loop

  @Test
  void vectorApiIsActiveInTestsAndAgreesWithScalar() {
    // The surefire argLine adds the incubator module, so the SIMD kernel must be the one chosen.
    assertTrue(DotProduct.best().name().startsWith("vector-api"), DotProduct.best().name());
    SplittableRandom r = new SplittableRandom(7);
    for (int t = 0; t < 100; t++) {
      float[] a = random(r);
      float[] b = random(r);
      float[] matrix = new float[DIM * 3];
      System.arraycopy(a, 0, matrix, DIM, DIM);
      assertEquals(DotProduct.scalar().dot(matrix, DIM, b, DIM), DotProduct.best().dot(matrix, DIM, b, DIM), 1e-4);
    }
  }

  @Test
  void topKMatchesBruteForceAndFiltersBeforeTheCut() {
    SplittableRandom r = new SplittableRandom(11);
    VectorIndex index = new VectorIndex(DotProduct.best());
    List<float[]> vectors = new ArrayList<>();
    List<VectorIndex.DocInfo> owners = new ArrayList<>();
    for (int d = 0; d < 50; d++) {
      VectorIndex.DocInfo doc = new VectorIndex.DocInfo("doc" + d, d % 2 == 0 ? "even" : "odd",
          new JsonObject().put("n", d));
      List<VectorIndex.Row> rows = new ArrayList<>();
      for (int c = 0; c < 4; c++) {
        float[] v = Vectors.normalized(random(r));
        rows.add(new VectorIndex.Row(vectors.size(), v));
        vectors.add(v);
        owners.add(doc);
      }
      index.put(doc, rows);
    }
    float[] q = Vectors.normalized(random(r));
    SearchFilter filter = new SearchFilter("odd", List.of(new MetadataCondition("n", MetadataCondition.Op.LT, List.of(10))));
    List<Integer> expected = IntStream.range(0, vectors.size())
        .filter(i -> MetadataFilters.matches(filter, owners.get(i).namespace(), owners.get(i).metadata()))
        .boxed().sorted(Comparator.comparingDouble(i -> -dot(vectors.get(i), q))).limit(7).toList();
    assertEquals(7, expected.size()); // docs 1,3,5,7,9 -> 20 rows
    assertEquals(expected.stream().map(Integer::longValue).toList(),
        index.search(q, 7, filter).stream().map(VectorIndex.Hit::chunkId).toList());

    // Remove a few documents (rows move into the holes); results equal brute force over what is left.
    for (int d = 0; d < 50; d += 3) {
      index.remove("doc" + d);
    }
    List<Integer> left = IntStream.range(0, vectors.size()).filter(i -> Integer.parseInt(owners.get(i).id().substring(3)) % 3 != 0)
        .boxed().sorted(Comparator.comparingDouble(i -> -dot(vectors.get(i), q))).toList();
    assertEquals(left.size(), index.size());
    List<VectorIndex.Hit> all = index.search(q, 1000, SearchFilter.NONE);
    assertEquals(left.stream().map(Integer::longValue).toList(), all.stream().map(VectorIndex.Hit::chunkId).toList());
    assertEquals(dot(vectors.get(left.get(0)), q), all.get(0).score(), 1e-5);
    assertThrows(IllegalArgumentException.class, () -> index.search(new float[DIM + 1], 3, SearchFilter.NONE));
  }

  @Test
  void int8KernelsAgree() {
    SplittableRandom r = new SplittableRandom(3);
    for (int t = 0; t < 100; t++) {
      byte[] codes = new byte[DIM * 2];
      for (int i = 0; i < codes.length; i++) {
        codes[i] = (byte) (r.nextInt(255) - 127);
      }
      float[] q = random(r);
      assertEquals(DotProduct.scalar().dot(codes, DIM, q, DIM), DotProduct.best().dot(codes, DIM, q, DIM), 1e-2);
    }
  }

  /**
   * The int8 shortlist and its float re-scoring give exactly the rows and scores of a scan of every float row, at
   * the size of a real store's dimension, filtered and not, for k from 1 to 30, and prove it without falling back.
   */
  @Test
  void shortlistedSearchEqualsAScanOfEveryRow() {
    int dim = 384;
    SplittableRandom r = new SplittableRandom(5);
    VectorIndex index = new VectorIndex(DotProduct.best());
    List<float[]> vectors = new ArrayList<>();
    List<VectorIndex.DocInfo> owners = new ArrayList<>();
    for (int d = 0; d < 1000; d++) {
      VectorIndex.DocInfo doc = new VectorIndex.DocInfo("doc" + d, d % 3 == 0 ? "a" : "b", new JsonObject().put("n", d));
      List<VectorIndex.Row> rows = new ArrayList<>();
      for (int c = 0; c < 3; c++) {
        float[] v = Vectors.normalized(random(r, dim));
        rows.add(new VectorIndex.Row(vectors.size(), v));
        vectors.add(v);
        owners.add(doc);
      }
      index.put(doc, rows);
    }
    SearchFilter onlyA = new SearchFilter("a", List.of());
    for (int t = 0; t < 60; t++) {
      float[] q = Vectors.normalized(random(r, dim));
      for (int k : new int[] {1, 10, 30}) {
        for (SearchFilter filter : List.of(SearchFilter.NONE, onlyA)) {
          List<VectorIndex.Hit> hits = index.search(q, k, filter);
          List<Integer> expected = IntStream.range(0, vectors.size())
              .filter(i -> MetadataFilters.matches(filter, owners.get(i).namespace(), owners.get(i).metadata()))
              .boxed().sorted(Comparator.<Integer>comparingDouble(i -> -DotProduct.best().dot(vectors.get(i), 0, q, dim))
                  .thenComparing(i -> i))
              .limit(k).toList();
          assertEquals(expected.stream().map(Integer::longValue).toList(), hits.stream().map(VectorIndex.Hit::chunkId).toList());
          for (int i = 0; i < k; i++) {
            assertEquals(DotProduct.best().dot(vectors.get(expected.get(i)), 0, q, dim), hits.get(i).score());
          }
        }
      }
    }
    assertEquals(0, index.fullScans(), "every shortlist proved exact on unit vectors");
  }

  /** Near-duplicate rows: their scores differ by less than the int8 error, so the proof fails and every row is scanned. */
  @Test
  void nearDuplicatesFallBackToAScanOfEveryRow() {
    SplittableRandom r = new SplittableRandom(9);
    float[] base = Vectors.normalized(random(r));
    VectorIndex index = new VectorIndex(DotProduct.best());
    List<float[]> vectors = new ArrayList<>();
    for (int d = 0; d < 400; d++) {
      float[] v = base.clone();
      for (int i = 0; i < DIM; i++) {
        v[i] += (float) ((r.nextDouble() - 0.5) * 1e-4);
      }
      vectors.add(v);
      index.put(new VectorIndex.DocInfo("doc" + d, "default", new JsonObject()), List.of(new VectorIndex.Row(d, v)));
    }
    float[] q = Vectors.normalized(random(r));
    List<Long> expected = IntStream.range(0, vectors.size()).boxed()
        .sorted(Comparator.<Integer>comparingDouble(i -> -DotProduct.best().dot(vectors.get(i), 0, q, DIM)).thenComparing(i -> i))
        .limit(5).map(Integer::longValue).toList();
    assertEquals(expected, index.search(q, 5, SearchFilter.NONE).stream().map(VectorIndex.Hit::chunkId).toList());
    assertEquals(1, index.fullScans());
  }

  private static float[] random(SplittableRandom r, int dim) {
    float[] v = new float[dim];
    for (int i = 0; i < dim; i++) {
      v[i] = (float) (r.nextDouble() * 2 - 1);
    }
    return v;
  }

  private static float dot(float[] a, float[] b) {
    float s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  private static float[] random(SplittableRandom r) {
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) (r.nextDouble() * 2 - 1);
    }
    return v;
  }
}
