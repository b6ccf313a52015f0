package dev.argus.knowledge.pg;

import dev.argus.config.ArgusConfig;
import dev.argus.config.ConfigLoader;
import dev.argus.config.PgConf;
import dev.argus.config.Settings;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A fresh PostgreSQL database for one test class on the local server ({@code ARGUS_PG_*} settings, default
 * 127.0.0.1:5432 as postgres): created from database {@code postgres} with the extensions, dropped at the end,
 * so test classes never see each other's data. Fails loudly when the server is not reachable.
 */
public final class PgTestDatabase implements AutoCloseable {

  private final PgConf admin;
  private final PgConf conf;

  private PgTestDatabase(PgConf admin, PgConf conf) {
    this.admin = admin;
    this.conf = conf;
  }

  /** The shipped {@code pg} section with environment overrides, as the service would read it. */
  public static PgConf localConf() {
    JsonObject raw = ConfigLoader.load(ArgusConfig.DEFAULT_FILE, System.getenv());
    return PgConf.from(Settings.of(raw, "pg"));
  }

  public static PgTestDatabase create() {
    return create(localConf());
  }

  public static PgTestDatabase create(PgConf base) {
    String name = "argus_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    PgConf admin = base.withDatabase("postgres");
    try (Connection c = connect(admin); Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("PostgreSQL for tests is not usable at " + base.host() + ":" + base.port()
          + " (run scripts/setup-postgres): " + e.getMessage(), e);
    }
    PgConf conf = base.withDatabase(name);
    try (Connection c = connect(conf); Statement st = c.createStatement()) {
      st.execute("CREATE EXTENSION IF NOT EXISTS vector");
      st.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm");
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create extensions in " + name + ": " + e.getMessage(), e);
    }
    return new PgTestDatabase(admin, conf);
  }

  public PgConf conf() {
    return conf;
  }

  /** {@code conf} with the PostgreSQL store on this database. */
  public ArgusConfig serve(ArgusConfig conf) {
    return conf.with("store", "type", "postgres").with("pg", "database", this.conf.database());
  }

  /** Runs one SQL statement over JDBC (test set-up and inspection only). */
  public void execute(String sql) {
    try (Connection c = connect(conf); Statement st = c.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  public static Connection connect(PgConf pg) throws SQLException {
    return DriverManager.getConnection("jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + pg.database(),
        pg.user(), pg.password());
  }

  @Override
  public void close() {
    try (Connection c = connect(admin); Statement st = c.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS " + conf.database() + " WITH (FORCE)");
    } catch (SQLException e) {
      throw new IllegalStateException("cannot drop test database " + conf.database() + ": " + e.getMessage(), e);
    }
  }

  /** Waits for a future on the test thread (never on an event loop). */
  public static <T> T await(Future<T> future) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException(cause);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
