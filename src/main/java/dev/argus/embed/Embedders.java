package dev.argus.embed;

import dev.argus.config.EmbeddingConf;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** Creates the configured {@link Embedder}. */
public final class Embedders {

  private Embedders() {
  }

  public static Future<Embedder> create(Vertx vertx, EmbeddingConf conf) {
    return Future.failedFuture(new UnsupportedOperationException("embedders are not implemented yet"));
  }
}
