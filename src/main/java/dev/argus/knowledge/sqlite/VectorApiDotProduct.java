package dev.argus.knowledge.sqlite;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/** SIMD dot product with the JDK Vector API (incubator); only loaded when the module is present. */
final class VectorApiDotProduct implements DotProduct {

  private static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;
  /** As many bytes as {@link #SPECIES} has floats: each slice of codes widens to one float vector. */
  private static final VectorSpecies<Byte> BYTES = VectorSpecies.of(byte.class,
      jdk.incubator.vector.VectorShape.forBitSize(SPECIES.length() * 8));

  @Override
  public float dot(float[] matrix, int offset, float[] query, int dim) {
    FloatVector acc = FloatVector.zero(SPECIES);
    int step = SPECIES.length();
    int bound = SPECIES.loopBound(dim);
    int i = 0;
    for (; i < bound; i += step) {
      FloatVector a = FloatVector.fromArray(SPECIES, matrix, offset + i);
      FloatVector b = FloatVector.fromArray(SPECIES, query, i);
      acc = a.fma(b, acc);
    }
    float sum = acc.reduceLanes(VectorOperators.ADD);
    for (; i < dim; i++) {
      sum += matrix[offset + i] * query[i];
    }
    return sum;
  }

  @Override
  public float dot(byte[] codes, int offset, float[] query, int dim) {
    FloatVector acc = FloatVector.zero(SPECIES);
    int step = SPECIES.length();
    int bound = SPECIES.loopBound(dim);
    int i = 0;
    for (; i < bound; i += step) {
      FloatVector a = (FloatVector) ByteVector.fromArray(BYTES, codes, offset + i)
          .convertShape(VectorOperators.B2F, SPECIES, 0);
      acc = a.fma(FloatVector.fromArray(SPECIES, query, i), acc);
    }
    float sum = acc.reduceLanes(VectorOperators.ADD);
    for (; i < dim; i++) {
      sum += codes[offset + i] * query[i];
    }
    return sum;
  }

  @Override
  public String name() {
    return "vector-api(" + SPECIES.vectorBitSize() + " bit)";
  }
}
