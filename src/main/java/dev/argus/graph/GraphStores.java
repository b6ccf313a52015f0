package dev.argus.graph;

import dev.argus.store.Database;

/** Creates the {@link GraphStore} for the database's dialect. */
public final class GraphStores {

  private GraphStores() {
  }

  /** Nodes the in-memory {@link GraphCache} holds when the configuration does not say (conf graph.cacheNodes). */
  public static final int DEFAULT_CACHE_NODES = 50_000;

  public static GraphStore create(Database db) {
    return create(db, DEFAULT_CACHE_NODES);
  }

  /** The store with an in-memory cache of at most {@code cacheNodes} nodes' edges and rows (0: no cache). */
  public static GraphStore create(Database db, int cacheNodes) {
    return db.dialect() == Database.Dialect.POSTGRES ? new PgGraphStore(db, cacheNodes)
        : new SqliteGraphStore(db, cacheNodes);
  }
}
