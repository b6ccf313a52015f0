package dev.argus.ingest;

import dev.argus.config.ArgusConfig;
import dev.argus.knowledge.pg.PgTestDatabase;

/** Every {@link EmbeddingFaultsTest} on the PostgreSQL store, a fresh database per test. */
class PgEmbeddingFaultsTest extends EmbeddingFaultsTest {

  private PgTestDatabase pg;

  @Override
  protected ArgusConfig configure(ArgusConfig base) {
    pg = PgTestDatabase.create();
    return base.with("store", "type", "postgres").with("pg", "database", pg.conf().database());
  }

  @Override
  protected void released() {
    pg.close();
  }
}
