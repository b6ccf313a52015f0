package dev.argus.knowledge.sqlite;

import dev.argus.knowledge.SearchFilter;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Not a test: measures the exact in-process top-10 scan over N x D random unit vectors (default 100,000 x 384)
 * with the JDK Vector API kernel and the scalar kernel, one thread. Run by hand, e.g.
 * {@code java --add-modules jdk.incubator.vector -cp target/classes:target/test-classes:$(cat cp.txt)
 * dev.argus.knowledge.sqlite.VectorScanBenchmark 100000 384 200}.
 */
public final class VectorScanBenchmark {

  private VectorScanBenchmark() {
  }

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int dim = args.length > 1 ? Integer.parseInt(args[1]) : 384;
    int queries = args.length > 2 ? Integer.parseInt(args[2]) : 200;
    SplittableRandom random = new SplittableRandom(42);
    List<float[]> vectors = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      vectors.add(randomUnit(random, dim));
    }
    float[][] qs = new float[queries][];
    for (int i = 0; i < queries; i++) {
      qs[i] = randomUnit(random, dim);
    }
    System.out.printf("exact top-10 over %,d x %d float32, %d queries, one thread, JDK %s%n", n, dim, queries,
        Runtime.version());
    List<DotProduct> kernels = new ArrayList<>();
    kernels.add(DotProduct.best());
    if (DotProduct.best() != DotProduct.scalar()) {
      kernels.add(DotProduct.scalar());
    }
    List<List<VectorIndex.Hit>> reference = null;
    for (DotProduct kernel : kernels) {
      VectorIndex index = new VectorIndex(kernel);
      VectorIndex.DocInfo doc = new VectorIndex.DocInfo("d", "default", new JsonObject());
      for (int i = 0; i < n; i++) {
        index.append(doc, new VectorIndex.Row(i, vectors.get(i)));
      }
      for (int w = 0; w < Math.min(queries, 50); w++) { // warm-up (JIT)
        index.search(qs[w], 10, SearchFilter.NONE);
      }
      double[] ms = new double[queries];
      List<List<VectorIndex.Hit>> results = new ArrayList<>();
      for (int i = 0; i < queries; i++) {
        long t0 = System.nanoTime();
        results.add(index.search(qs[i], 10, SearchFilter.NONE));
        ms[i] = (System.nanoTime() - t0) / 1e6;
      }
      Arrays.sort(ms);
      double mean = Arrays.stream(ms).average().orElse(0);
      System.out.printf("%-22s mean %6.2f ms  p50 %6.2f ms  p95 %6.2f ms  min %6.2f ms%n", kernel.name(), mean,
          ms[queries / 2], ms[(int) (queries * 0.95)], ms[0]);
      if (reference == null) {
        reference = results;
      } else {
        int same = 0;
        for (int i = 0; i < queries; i++) {
          if (ids(reference.get(i)).equals(ids(results.get(i)))) {
            same++;
          }
        }
        System.out.printf("identical top-10 id lists between kernels: %d/%d%n", same, queries);
      }
    }
  }

  private static List<Long> ids(List<VectorIndex.Hit> hits) {
    return hits.stream().map(VectorIndex.Hit::chunkId).toList();
  }

  private static float[] randomUnit(SplittableRandom random, int dim) {
    float[] v = new float[dim];
    double norm = 0;
    for (int i = 0; i < dim; i++) {
      v[i] = (float) (random.nextDouble() * 2 - 1);
      norm += v[i] * v[i];
    }
    float inv = (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < dim; i++) {
      v[i] *= inv;
    }
    return v;
  }
}
