package dev.argus.graph;

import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Long id lists cut into parts that fit one statement's parameters, run one part after the other. */
final class Chunks {

  private Chunks() {
  }

  static <T> List<List<T>> of(List<T> all, int size) {
    List<List<T>> out = new ArrayList<>();
    for (int i = 0; i < all.size(); i += size) {
      out.add(all.subList(i, Math.min(all.size(), i + size)));
    }
    return out;
  }

  /** {@code each} over parts of {@link SqlGraphStore#IN_CHUNK} ids, sequentially. */
  static Future<Void> forEach(List<String> all, Function<List<String>, Future<?>> each) {
    Future<Void> chain = Future.succeededFuture();
    for (List<String> part : of(all, SqlGraphStore.IN_CHUNK)) {
      chain = chain.compose(v -> each.apply(part).mapEmpty());
    }
    return chain;
  }
}
