package dev.argus.knowledge.pg;

import dev.argus.knowledge.Chunk;
import dev.argus.store.Database;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.List;

import static dev.argus.knowledge.pg.PgTestDatabase.await;

/**
 * A {@link PgKnowledgeStore} on a fresh PostgreSQL database for one test class, its embedding model recorded;
 * {@link #close()} closes it and drops the database.
 */
final class PgTestStore implements AutoCloseable {

  final Vertx vertx;
  final PgTestDatabase pg;
  final Database db;
  final PgKnowledgeStore store;

  private PgTestStore(Vertx vertx, PgTestDatabase pg, Database db, PgKnowledgeStore store) {
    this.vertx = vertx;
    this.pg = pg;
    this.db = db;
    this.store = store;
  }

  static PgTestStore open(String model, int dimension) {
    Vertx vertx = Vertx.vertx();
    PgTestDatabase pg = PgTestDatabase.create();
    Database db = await(Database.postgres(vertx, pg.conf()));
    PgKnowledgeStore store = new PgKnowledgeStore(db, pg.conf());
    await(store.checkEmbeddingModel(model, dimension));
    return new PgTestStore(vertx, pg, db, store);
  }

  /** Stores a document of one chunk (namespace {@code default}, no metadata) with {@code vector}. */
  void put(String id, String title, String text, float[] vector) {
    await(store.upsert(PgStoreBehaviourTest.doc(id, title, "default", new JsonObject(), text),
        List.of(new Chunk(id, 0, 1, text, vector))));
  }

  /** Refreshes the planner statistics the text legs read (the chunks and the trigram table). */
  void analyze() {
    await(db.pool().query(PgTextSql.ANALYZE_KNOWLEDGE_TABLES).execute());
  }

  @Override
  public void close() {
    await(db.close());
    await(vertx.close());
    pg.close();
  }
}
