package dev.argus.knowledge.sqlite;

import java.util.logging.Logger;

/**
 * The inner loop of the exact vector scan: the dot product of a query with one row of a contiguous
 * row-major matrix. {@link #best()} picks the JDK Vector API implementation when the incubator module
 * {@code jdk.incubator.vector} is present at run time ({@code --add-modules jdk.incubator.vector}), else a
 * scalar loop.
 */
interface DotProduct {

  /** {@code sum(matrix[offset + i] * query[i])} for {@code i < dim}. */
  float dot(float[] matrix, int offset, float[] query, int dim);

  /** The same over int8 codes: {@code sum(codes[offset + i] * query[i])} for {@code i < dim} (unscaled). */
  float dot(byte[] codes, int offset, float[] query, int dim);

  String name();

  static DotProduct best() {
    return Holder.BEST;
  }

  static DotProduct scalar() {
    return ScalarDotProduct.INSTANCE;
  }

  final class Holder {
    private static final Logger LOG = Logger.getLogger(DotProduct.class.getName());
    static final DotProduct BEST = load();

    private Holder() {
    }

    private static DotProduct load() {
      if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
        LOG.info("jdk.incubator.vector is not enabled (--add-modules jdk.incubator.vector); vector scan uses a scalar loop");
        return ScalarDotProduct.INSTANCE;
      }
      try {
        // Loaded by name so that this interface never links against the incubator module when it is absent.
        return (DotProduct) Class.forName("dev.argus.knowledge.sqlite.VectorApiDotProduct")
            .getDeclaredConstructor().newInstance();
      } catch (ReflectiveOperationException | LinkageError e) {
        LOG.warning("JDK Vector API unavailable (" + e + "); vector scan uses a scalar loop");
        return ScalarDotProduct.INSTANCE;
      }
    }
  }
}
