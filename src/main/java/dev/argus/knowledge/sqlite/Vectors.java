package dev.argus.knowledge.sqlite;

import io.vertx.core.buffer.Buffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Embedding encoding in the chunks table (little-endian float32 BLOB) and normalization. */
final class Vectors {

  private Vectors() {
  }

  /** Raw bytes (not a Buffer: the JDBC client turns Buffers into java.sql.Blob, which sqlite-jdbc lacks). */
  static byte[] encode(float[] v) {
    ByteBuffer bb = ByteBuffer.allocate(v.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    bb.asFloatBuffer().put(v);
    return bb.array();
  }

  static float[] decode(Object blob) {
    byte[] bytes;
    if (blob instanceof Buffer b) {
      bytes = b.getBytes();
    } else if (blob instanceof byte[] raw) {
      bytes = raw;
    } else {
      throw new IllegalStateException("unexpected embedding column type: " + (blob == null ? null : blob.getClass()));
    }
    float[] v = new float[bytes.length / Float.BYTES];
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
    return v;
  }

  /** The Euclidean length. */
  static float norm(float[] v) {
    return (float) Math.sqrt(squaredNorm(v));
  }

  private static double squaredNorm(float[] v) {
    double sum = 0;
    for (float x : v) {
      sum += (double) x * x;
    }
    return sum;
  }

  /** A unit-length copy (cosine similarity = dot product); a zero vector stays zero. */
  static float[] normalized(float[] v) {
    double sum = squaredNorm(v);
    float[] out = v.clone();
    if (sum > 0) {
      float inv = (float) (1.0 / Math.sqrt(sum));
      for (int i = 0; i < out.length; i++) {
        out[i] *= inv;
      }
    }
    return out;
  }

  static boolean finite(float[] v) {
    for (float x : v) {
      if (!Float.isFinite(x)) {
        return false;
      }
    }
    return true;
  }
}
