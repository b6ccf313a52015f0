package dev.argus.knowledge.sqlite;

/** Plain loop with four accumulators (lets the JIT pipeline the multiply-adds). */
final class ScalarDotProduct implements DotProduct {

  static final ScalarDotProduct INSTANCE = new ScalarDotProduct();

  @Override
  public float dot(float[] matrix, int offset, float[] query, int dim) {
    float s0 = 0;
    float s1 = 0;
    float s2 = 0;
    float s3 = 0;
    int i = 0;
    for (; i + 4 <= dim; i += 4) {
      s0 += matrix[offset + i] * query[i];
      s1 += matrix[offset + i + 1] * query[i + 1];
      s2 += matrix[offset + i + 2] * query[i + 2];
      s3 += matrix[offset + i + 3] * query[i + 3];
    }
    for (; i < dim; i++) {
      s0 += matrix[offset + i] * query[i];
    }
    return (s0 + s1) + (s2 + s3);
  }

  @Override
  public float dot(byte[] codes, int offset, float[] query, int dim) {
    float s0 = 0;
    float s1 = 0;
    float s2 = 0;
    float s3 = 0;
    int i = 0;
    for (; i + 4 <= dim; i += 4) {
      s0 += codes[offset + i] * query[i];
      s1 += codes[offset + i + 1] * query[i + 1];
      s2 += codes[offset + i + 2] * query[i + 2];
      s3 += codes[offset + i + 3] * query[i + 3];
    }
    for (; i < dim; i++) {
      s0 += codes[offset + i] * query[i];
    }
    return (s0 + s1) + (s2 + s3);
  }

  @Override
  public String name() {
    return "scalar";
  }
}
