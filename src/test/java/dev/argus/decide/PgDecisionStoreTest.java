package dev.argus.decide;

import dev.argus.config.ArgusConfig;
import dev.argus.config.PgConf;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;

/** The decision store contract on a fresh PostgreSQL database (a trigger keeps decisions append-only), dropped afterwards. */
class PgDecisionStoreTest extends DecisionStoreContract {

  private PgConf pg;
  private String dbName;

  @Override
  protected Future<Database> openDatabase(Vertx vertx) {
    pg = ArgusConfig.load(Path.of("conf", "argus.json"), System.getenv()).pg();
    dbName = "argus_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    return vertx.executeBlocking(() -> {
      try (Connection c = admin("postgres"); Statement st = c.createStatement()) {
        st.execute("CREATE DATABASE " + dbName);
      }
      try (Connection c = admin(dbName); Statement st = c.createStatement()) {
        st.execute("CREATE EXTENSION IF NOT EXISTS vector");
        st.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm");
      }
      return null;
    }, false).compose(v -> Database.postgres(vertx, pg.withDatabase(dbName)));
  }

  @Override
  protected void dropDatabase() throws Exception {
    try (Connection c = admin("postgres"); Statement st = c.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS " + dbName + " WITH (FORCE)");
    }
  }

  private Connection admin(String database) throws Exception {
    return DriverManager.getConnection("jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + database,
        pg.user(), pg.password());
  }
}
