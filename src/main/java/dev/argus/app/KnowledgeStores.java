package dev.argus.app;

import dev.argus.knowledge.KnowledgeStore;
import dev.argus.config.ArgusConfig;
import dev.argus.knowledge.pg.PgKnowledgeStore;
import dev.argus.knowledge.sqlite.SqliteKnowledgeStore;
import dev.argus.store.Database;
import io.vertx.core.Future;

/** Creates the {@link KnowledgeStore} for the database's dialect. */
public final class KnowledgeStores {

  private KnowledgeStores() {
  }

  public static Future<KnowledgeStore> create(Database db, ArgusConfig conf) {
    return switch (db.dialect()) {
      case SQLITE -> SqliteKnowledgeStore.open(db);
      case POSTGRES -> Future.succeededFuture(new PgKnowledgeStore(db, conf.pg()));
    };
  }
}
