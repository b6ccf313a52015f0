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
