package dev.argus.knowledge.sqlite;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/** SIMD dot product with the JDK Vector API (incubator); only loaded when the module is present. */
final class VectorApiDotProduct implements DotProduct {

  private static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;

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
  public String name() {
    return "vector-api(" + SPECIES.vectorBitSize() + " bit)";
  }
}
