package dev.argus.store;

import dev.argus.common.Errors;
import dev.argus.config.ArgusConfig;
import dev.argus.config.PgConf;
import dev.argus.store.PgExtensions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.jdbcclient.JDBCConnectOptions;
import io.vertx.jdbcclient.JDBCPool;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.SqlConnection;
import org.flywaydb.core.Flyway;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * The SQL database every store of one process shares: the embedded SQLite file (vertx-jdbc-client over
 * sqlite-jdbc, WAL mode) or PostgreSQL (vertx-pg-client). Opening it applies the versioned migrations of
 * its dialect with Flyway ({@code db/migration/sqlite} or {@code db/migration/postgres}) on a worker thread.
 * Migrations may arrive out of order (capabilities built side by side took numbers below ones a store already has,
 * e.g. V8 graph after V9): each touches only its own tables, so a missing lower version is applied, not refused.
 */
public final class Database {

  private static final Logger LOG = Logger.getLogger(Database.class.getName());

  public enum Dialect { SQLITE, POSTGRES }

  private final Vertx vertx;
  private final Pool pool;
  private final Dialect dialect;
  private final String description;
  /** PostgreSQL: how to connect another pool to the same database; null on SQLite. */
  private final PgConnectOptions connectOptions;
  private final java.util.List<Pool> dedicated = new java.util.concurrent.CopyOnWriteArrayList<>();

  private Database(Vertx vertx, Pool pool, Dialect dialect, String description) {
    this(vertx, pool, dialect, description, null);
  }

  private Database(Vertx vertx, Pool pool, Dialect dialect, String description, PgConnectOptions connectOptions) {
    this.vertx = vertx;
    this.pool = pool;
    this.dialect = dialect;
    this.description = description;
    this.connectOptions = connectOptions;
  }

  /**
   * A pool of its own (at most {@code maxSize} connections to the same PostgreSQL database) for short statements
   * that must not wait in the shared pool's queue behind the application's queries, e.g. the cluster's run leases,
   * whose renewals are bounded in time; closed with the database. On SQLite (one process, one file) the shared pool.
   */
  public Pool dedicatedPool(int maxSize) {
    if (connectOptions == null) {
      return pool;
    }
    Pool p = PgBuilder.pool().with(new PoolOptions().setMaxSize(maxSize)).connectingTo(connectOptions).using(vertx)
        .build();
    dedicated.add(p);
    return p;
  }

  /** Opens the database the configuration selects ({@code store.type}). */
  public static Future<Database> open(Vertx vertx, ArgusConfig conf) {
    return conf.store().isPostgres() ? postgres(vertx, conf.pg()) : sqlite(vertx, conf.data().sqliteFile());
  }

  /**
   * SQLite's page cache per connection, in KiB (64 MiB; SQLite's default is 2 MiB): a traversal of a large graph
   * revisits the upper levels of the same indexes from statement to statement, and each page missing from this cache
   * is a system call and a copy. Allocated as pages are read, so a small store stays small.
   */
  static final int SQLITE_CACHE_KIB = 65_536;

  /**
   * The SQLite pool: SQLite has one writer at a time, and a few connections let reads run beside a write. No
   * acquisition timer (the library's default is 30 s): in vertx-sql-client 5.0.8 a request that joins the queue of
   * a busy pool arms its timer only after joining, so a connection released by another thread in between serves
   * the request first; the timer then fires 30 s later, finds the request neither queued nor cancelled and fails its
   * already succeeded promise, an {@code IllegalStateException} on the requester's context (seen 6 times while
   * ingesting SciFact, 0 with no timer). A SQLite request's wait is bounded without it: every statement waits at
   * most {@code busy_timeout} for the file's lock, so connections come back.
   */
  static PoolOptions sqlitePoolOptions() {
    return new PoolOptions().setMaxSize(4).setConnectionTimeout(0);
  }

  /** Opens (creating if needed) the SQLite file and migrates it. */
  public static Future<Database> sqlite(Vertx vertx, Path file) {
    String url = "jdbc:sqlite:" + file.toAbsolutePath()
        + "?journal_mode=WAL&busy_timeout=30000&foreign_keys=true&synchronous=NORMAL&cache_size=-" + SQLITE_CACHE_KIB;
    return vertx.executeBlocking(() -> {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Flyway.configure().dataSource(url, null, null).locations("classpath:db/migration/sqlite").outOfOrder(true)
          .loggers("slf4j").load().migrate();
      return null;
    }, false).map(v -> {
      Pool pool = JDBCPool.pool(vertx, new JDBCConnectOptions().setJdbcUrl(url), sqlitePoolOptions());
      return new Database(vertx, pool, Dialect.SQLITE, "sqlite:" + file);
    });
  }

  /**
   * The longest statement a connection keeps prepared (the client's default is 2,048 characters). The text legs'
   * statements grow with the query's terms (about 300 characters a keyword term, up to 64 terms); one the client
   * does not keep is sent unnamed, so the server parses and plans it again on every search (on SciFact 712 of 809
   * keyword statements, 1.1 ms of the backend each).
   */
  static final int PREPARED_STATEMENT_SQL_LIMIT = 64 * 1024;

  /**
   * Connects to PostgreSQL, retrying with exponential backoff up to {@code pg.connectRetries} times, and
   * migrates it. Fails with a message naming the server when it stays unreachable.
   */
  public static Future<Database> postgres(Vertx vertx, PgConf pg) {
    String url = "jdbc:postgresql://" + pg.host() + ":" + pg.port() + "/" + pg.database();
    String where = pg.host() + ":" + pg.port() + "/" + pg.database();
    return withRetry(vertx, pg, 0, () -> vertx.executeBlocking(() -> {
      try (Connection conn = DriverManager.getConnection(url, pg.user(), pg.password())) {
        PgExtensions.ensure(conn, PgExtensions.REQUIRED, where);
      }
      Flyway.configure().dataSource(url, pg.user(), pg.password()).locations("classpath:db/migration/postgres")
          .outOfOrder(true)
          .loggers("slf4j").load().migrate();
      return null;
    }, false)).map(v -> {
      PgConnectOptions connect = new PgConnectOptions().setHost(pg.host()).setPort(pg.port())
          .setDatabase(pg.database()).setUser(pg.user()).setPassword(pg.password())
          .setCachePreparedStatements(true).setPreparedStatementCacheSqlLimit(PREPARED_STATEMENT_SQL_LIMIT)
          .setReconnectAttempts(2).setReconnectInterval(500);
      Pool pool = PgBuilder.pool().with(new PoolOptions().setMaxSize(pg.poolSize())).connectingTo(connect)
          .using(vertx).build();
      return new Database(vertx, pool, Dialect.POSTGRES, "postgres:" + pg.host() + ":" + pg.port() + "/" + pg.database(),
          connect);
    });
  }

  private static Future<Void> withRetry(Vertx vertx, PgConf pg, int attempt,
                                        java.util.function.Supplier<Future<Void>> action) {
    return action.get().recover(err -> {
      if (err instanceof PgExtensions.MissingExtensionException) {
        return Future.failedFuture(err); // retrying does not install an extension
      }
      if (!isTransient(err)) {
        return Future.failedFuture(new IllegalStateException("PostgreSQL at " + pg.host() + ":" + pg.port() + "/"
            + pg.database() + " cannot be used: " + Errors.rootMessage(err), err));
      }
      if (attempt >= pg.connectRetries()) {
        return Future.failedFuture(new IllegalStateException("PostgreSQL at " + pg.host() + ":" + pg.port() + "/"
            + pg.database() + " is not usable after " + (attempt + 1) + " attempts: " + Errors.rootMessage(err), err));
      }
      long delay = Math.min(pg.connectBackoffMs() * (1L << Math.min(attempt, 16)), 30_000);
      LOG.warning("PostgreSQL at " + pg.host() + ":" + pg.port() + " not usable (" + Errors.rootMessage(err) + "); retry "
          + (attempt + 1) + "/" + pg.connectRetries() + " in " + delay + " ms");
      Promise<Void> later = Promise.promise();
      vertx.setTimer(delay, id -> withRetry(vertx, pg, attempt + 1, action).onComplete(later));
      return later.future();
    });
  }

  /** Connection-level failures (refused, reset, server starting or shutting down) are worth a retry; others not. */
  static boolean isTransient(Throwable err) {
    for (Throwable t = err; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof java.net.ConnectException || t instanceof java.net.SocketException
          || t instanceof java.net.UnknownHostException || t instanceof java.io.EOFException) {
        return true;
      }
      if (t instanceof java.sql.SQLException sql && sql.getSQLState() != null
          && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P"))) {
        return true;
      }
    }
    return false;
  }

  public Pool pool() {
    return pool;
  }

  /**
   * Runs {@code work} in one transaction on one connection: committed when its future succeeds, rolled back
   * when it fails. On SQLite this issues {@code BEGIN IMMEDIATE}/{@code COMMIT}/{@code ROLLBACK} on an
   * autocommit connection instead of {@code Pool.withTransaction}: vertx-jdbc-client 5.0.8 returns a pooled
   * connection with autocommit still off after {@code withTransaction} (fixed upstream after 5.0.8), and later
   * reads on that connection then see a stale snapshot. {@code IMMEDIATE} takes the write lock up front, so two
   * writers wait on {@code busy_timeout} instead of failing on lock upgrade.
   */
  public <T> Future<T> inTransaction(Function<SqlConnection, Future<T>> work) {
    if (dialect == Dialect.POSTGRES) {
      return pool.withTransaction(work);
    }
    return pool.withConnection(conn -> conn.query("BEGIN IMMEDIATE").execute()
        .compose(v -> work.apply(conn))
        .compose(result -> conn.query("COMMIT").execute().map(result),
            err -> conn.query("ROLLBACK").execute().transform(x -> Future.<T>failedFuture(err))));
  }

  public Dialect dialect() {
    return dialect;
  }

  public Vertx vertx() {
    return vertx;
  }

  @Override
  public String toString() {
    return description;
  }

  public Future<Void> close() {
    dedicated.forEach(Pool::close);
    return pool.close();
  }
}
