package dev.argus.knowledge.pg;

import dev.argus.config.PgConf;
import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import dev.argus.store.Database;
import io.vertx.core.Vertx;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.argus.knowledge.pg.PgTestDatabase.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A store written by an earlier schema (migrations V1-V2: ranking by {@code ts_rank}, trigram indexes on the text)
 * is upgraded at start: V3 derives the term columns of the chunks already there, V18 moves their trigrams into a
 * table of their own, and the text legs find them.
 */
class PgUpgradeTest {

  @Test
  void startUpgradesAnEarlierStoreAndItsChunksAreFound() {
    Vertx vertx = Vertx.vertx();
    try (PgTestDatabase pg = PgTestDatabase.create()) {
      PgConf conf = pg.conf();
      Flyway.configure().dataSource("jdbc:postgresql://" + conf.host() + ":" + conf.port() + "/" + conf.database(),
          conf.user(), conf.password()).locations("classpath:db/migration/postgres").target("2").load().migrate();
      pg.execute("INSERT INTO documents (id, namespace, title, text, content_hash, chunk_count)"
          + " VALUES ('old-1', 'default', 'Chargeback playbook', 'Friendly fraud disputes.', 'h1', 1)");
      pg.execute("INSERT INTO chunks (document_id, idx, total, text, namespace, title)"
          + " VALUES ('old-1', 0, 1, 'Friendly fraud disputes after delivery of seller SLR-40917.', 'default',"
          + " 'Chargeback playbook')");

      Database db = await(Database.postgres(vertx, conf));
      PgKnowledgeStore store = new PgKnowledgeStore(db, conf);
      List<ScoredChunk> keyword = await(store.keywordSearch("disputes after delivery", 5, SearchFilter.NONE));
      assertEquals(List.of("old-1"), keyword.stream().map(ScoredChunk::documentId).toList());
      List<ScoredChunk> trigram = await(store.trigramSearch("SLR-40971", 5, SearchFilter.NONE)); // digits swapped
      assertEquals("old-1", trigram.get(0).documentId());
      long analysed = await(db.pool().query("SELECT count(*) FROM pg_stats WHERE tablename = 'chunks'"
          + " AND attname = 'tsv_len' OR tablename = 'chunk_trigrams' AND attname IN ('tgv', 'tgv_len')").execute())
          .iterator().next().getLong(0);
      assertEquals(3, analysed, "V3 and V18 analysed the new columns of the rows already there");
      long moved = await(db.pool().query("SELECT count(*) FROM chunk_trigrams t JOIN chunks c USING (document_id, idx)"
          + " WHERE t.tgv = array_to_tsvector(show_trgm(c.title || ' ' || c.text))").execute()).iterator().next().getLong(0);
      assertEquals(1, moved, "V18 moved the chunk's trigrams into their own table");
      await(db.close());
    } finally {
      await(vertx.close());
    }
  }
}
