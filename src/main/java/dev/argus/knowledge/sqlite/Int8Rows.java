package dev.argus.knowledge.sqlite;

import java.util.Arrays;

/**
 * An int8 copy of the vector matrix, a quarter of its size, for the first pass of the vector scan: row r holds
 * {@code codes[r * dim + i] = round(x_i / scale[r])} with {@code scale[r] = max |x_i| / 127}, and the length of
 * what that rounding lost, {@code residual[r] = |x - scale[r] * codes[r]|}. By Cauchy-Schwarz a dot product with a
 * query {@code q} read from the codes is off the exact one by at most {@code residual[r] * |q|}
 * ({@link #errorBound}). Rows move and go exactly as the matrix's do. Not thread-safe: {@link VectorIndex} guards
 * it with its lock.
 */
final class Int8Rows {

  /** Margin for the float arithmetic of the two dot products and of the residual itself. */
  private static final float SLACK = 1e-5f;

  private byte[] codes = new byte[0];
  private float[] scales = new float[0];
  private float[] residuals = new float[0];

  byte[] codes() {
    return codes;
  }

  float scale(int row) {
    return scales[row];
  }

  void ensureCapacity(int rows, int dim) {
    if (rows > scales.length) {
      codes = Arrays.copyOf(codes, rows * dim);
      scales = Arrays.copyOf(scales, rows);
      residuals = Arrays.copyOf(residuals, rows);
    }
  }

  /** Quantizes {@code dim} floats of {@code vector} from {@code offset} into row {@code row}. */
  void set(int row, float[] vector, int offset, int dim) {
    float max = 0;
    for (int i = 0; i < dim; i++) {
      max = Math.max(max, Math.abs(vector[offset + i]));
    }
    float scale = max == 0 ? 1 : max / 127f;
    int base = row * dim;
    double lost = 0;
    for (int i = 0; i < dim; i++) {
      byte code = (byte) Math.max(-127, Math.min(127, Math.round(vector[offset + i] / scale)));
      codes[base + i] = code;
      double d = vector[offset + i] - (double) code * scale;
      lost += d * d;
    }
    scales[row] = scale;
    residuals[row] = (float) Math.sqrt(lost);
  }

  void move(int from, int to, int dim) {
    System.arraycopy(codes, from * dim, codes, to * dim, dim);
    scales[to] = scales[from];
    residuals[to] = residuals[from];
  }

  void clear() {
    codes = new byte[0];
    scales = new float[0];
    residuals = new float[0];
  }

  /** How far row {@code row}'s int8 dot product with a query of length {@code queryNorm} can be from the exact one. */
  float errorBound(int row, float queryNorm) {
    return residuals[row] * queryNorm * 1.0001f + SLACK;
  }
}
