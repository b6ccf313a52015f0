package dev.argus.retrieval;

import dev.argus.config.ArgusConfig;
import dev.argus.knowledge.pg.PgTestDatabase;

/** {@link EmptyStoreSearchTest} on PostgreSQL: a fresh database for each test, searched at once. */
class PgEmptyStoreSearchTest extends EmptyStoreSearchTest {

  private PgTestDatabase pg;

  @Override
  protected ArgusConfig configure(ArgusConfig conf) {
    pg = PgTestDatabase.create();
    return conf.with("store", "type", "postgres").with("pg", "database", pg.conf().database());
  }

  @Override
  protected void released() {
    pg.close();
  }
}
