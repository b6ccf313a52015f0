package dev.argus.http;

import dev.argus.config.ArgusConfig;
import dev.argus.knowledge.pg.PgTestDatabase;

/** Every {@link MalformedInputTest} case on the PostgreSQL store, a fresh database for the class. */
class PgMalformedInputTest extends MalformedInputTest {

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
