package dev.argus.graph;

import dev.argus.store.Database;

/** Creates the {@link GraphStore} for the database's dialect. */
public final class GraphStores {

  private GraphStores() {
  }

  public static GraphStore create(Database db) {
    return db.dialect() == Database.Dialect.POSTGRES ? new PgGraphStore(db) : new SqliteGraphStore(db);
  }
}
