package dev.argus.knowledge.pg;

import dev.argus.knowledge.KnowledgeStore;
import dev.argus.knowledge.KnowledgeStoreContract;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The knowledge-store contract on the real local PostgreSQL: every test gets a fresh database (created before
 * the contract opens its store, dropped after it closed it); reopening connects a new pool to the same database.
 */
class PgKnowledgeStoreTest extends KnowledgeStoreContract {

  private PgTestDatabase pg;
  private final Map<KnowledgeStore, Database> databases = new IdentityHashMap<>();

  @RegisterExtension
  final BeforeEachCallback freshDatabase = context -> pg = PgTestDatabase.create();

  @RegisterExtension
  final AfterEachCallback dropDatabase = context -> pg.close();

  @Override
  protected Future<KnowledgeStore> openStore(Vertx vertx) {
    return Database.postgres(vertx, pg.conf()).map(db -> {
      KnowledgeStore store = new PgKnowledgeStore(db, pg.conf());
      databases.put(store, db);
      return store;
    });
  }

  @Override
  protected Future<Void> closeStore(KnowledgeStore store) {
    Database db = databases.remove(store);
    return store.close().compose(v -> db == null ? Future.succeededFuture() : db.close());
  }

  /** The consistency check names what PostgreSQL lacks: the HNSW index dropped behind the store's back. */
  @org.junit.jupiter.api.Test
  void consistencyNamesAMissingVectorIndex() {
    put("x1", "default", "X", new io.vertx.core.json.JsonObject(), "some text", axis(0));
    pg.execute("DROP INDEX IF EXISTS chunks_embedding_hnsw");
    java.util.Map<String, Boolean> checks = new java.util.HashMap<>();
    await(store.consistency()).forEach(c -> checks.put(c.name(), c.ok()));
    org.junit.jupiter.api.Assertions.assertFalse(checks.get("vector_index"), checks.toString());
    org.junit.jupiter.api.Assertions.assertTrue(checks.get("extensions"), checks.toString());
    org.junit.jupiter.api.Assertions.assertTrue(checks.get("chunk_counts"), checks.toString());
  }
}
