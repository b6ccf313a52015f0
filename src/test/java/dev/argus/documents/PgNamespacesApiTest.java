package dev.argus.documents;

import dev.argus.config.ArgusConfig;
import dev.argus.knowledge.pg.PgTestDatabase;

/** Every {@link NamespacesApiTest} on the PostgreSQL store, in a fresh database for the class. */
class PgNamespacesApiTest extends NamespacesApiTest {

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
