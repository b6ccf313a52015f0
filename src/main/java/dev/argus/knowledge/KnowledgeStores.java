package dev.argus.knowledge;

import dev.argus.config.ArgusConfig;
import dev.argus.store.Database;
import io.vertx.core.Future;

/** Creates the {@link KnowledgeStore} for the database's dialect. */
public final class KnowledgeStores {

  private KnowledgeStores() {
  }

  public static Future<KnowledgeStore> create(Database db, ArgusConfig conf) {
    return Future.failedFuture(new UnsupportedOperationException("knowledge stores are not implemented yet"));
  }
}
