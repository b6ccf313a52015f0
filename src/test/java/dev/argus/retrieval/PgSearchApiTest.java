package dev.argus.retrieval;

import dev.argus.config.ArgusConfig;
import dev.argus.knowledge.pg.PgTestDatabase;

/**
 * Every {@link SearchApiTest} on the PostgreSQL store: the same knowledge, requests and expectations (per-retriever
 * ranks and scores, fusion, filters inside each leg, errors), a fresh database for the class.
 */
class PgSearchApiTest extends SearchApiTest {

  private PgTestDatabase pg;

  @Override
  protected ArgusConfig configure(ArgusConfig conf) {
    pg = PgTestDatabase.create();
    return pg.serve(conf);
  }

  @Override
  protected void released() {
    pg.close();
  }
}
