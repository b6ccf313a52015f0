package dev.argus.knowledge.sqlite;

import dev.argus.knowledge.KnowledgeStore;
import dev.argus.knowledge.KnowledgeStoreContract;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.Map;

/** The knowledge-store contract on a real SQLite file in a fresh temporary folder per test. */
class SqliteKnowledgeStoreTest extends KnowledgeStoreContract {

  @TempDir
  Path dir;

  private final Map<KnowledgeStore, Database> databases = new IdentityHashMap<>();

  @Override
  protected Future<KnowledgeStore> openStore(Vertx vertx) {
    return Database.sqlite(vertx, dir.resolve("argus.db")).compose(db -> SqliteKnowledgeStore.open(db)
        .onSuccess(store -> databases.put(store, db))
        .recover(err -> db.close().transform(v -> Future.failedFuture(err))));
  }

  @Override
  protected Future<Void> closeStore(KnowledgeStore store) {
    Database db = databases.remove(store);
    return store.close().compose(v -> db == null ? Future.succeededFuture() : db.close());
  }
}
