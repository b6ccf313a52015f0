package dev.argus.config;

/** Section {@code pg}: the PostgreSQL backend ({@code ARGUS_PG_*}). */
public record PgConf(String host, int port, String database, String user, String password, int poolSize,
                     int connectRetries, long connectBackoffMs, int hnswM, int hnswEfConstruction, int efSearch,
                     int keywordPostings, int trigramPostings) {

  public static PgConf from(Settings s) {
    return new PgConf(
        s.nonBlank("host", "127.0.0.1"),
        s.intIn("port", 5432, 1, 65535),
        s.nonBlank("database", "argus"),
        s.nonBlank("user", "postgres"),
        s.string("password", ""),
        s.intIn("poolSize", 8, 1, 256),
        s.intIn("connectRetries", 5, 0, 1000),
        s.longIn("connectBackoffMs", 500, 10, 60_000),
        s.intIn("hnswM", 16, 2, 100),
        s.intIn("hnswEfConstruction", 64, 4, 1000),
        s.intIn("efSearch", 200, 1, 1000),
        s.intIn("keywordPostings", 500, 1, 10_000_000),
        s.intIn("trigramPostings", 6000, 1, 10_000_000));
  }

  /** The same settings pointing at another database (tests use {@code argus_test}). */
  public PgConf withDatabase(String name) {
    return new PgConf(host, port, name, user, password, poolSize, connectRetries, connectBackoffMs, hnswM,
        hnswEfConstruction, efSearch, keywordPostings, trigramPostings);
  }

  /** The same settings with another pool size (tests use one connection to see its session state). */
  public PgConf withPoolSize(int size) {
    return new PgConf(host, port, database, user, password, size, connectRetries, connectBackoffMs, hnswM,
        hnswEfConstruction, efSearch, keywordPostings, trigramPostings);
  }

  /** The same settings with another {@code hnsw.ef_search} (benchmarks compare several). */
  public PgConf withEfSearch(int ef) {
    return new PgConf(host, port, database, user, password, poolSize, connectRetries, connectBackoffMs, hnswM,
        hnswEfConstruction, ef, keywordPostings, trigramPostings);
  }

  /** The same settings with other work bounds of the text legs, in postings (tests use small ones). */
  public PgConf withPostings(int keyword, int trigram) {
    return new PgConf(host, port, database, user, password, poolSize, connectRetries, connectBackoffMs, hnswM,
        hnswEfConstruction, efSearch, keyword, trigram);
  }

  @Override
  public String toString() {
    return "PgConf[" + user + "@" + host + ":" + port + "/" + database + ", poolSize=" + poolSize + "]";
  }
}
