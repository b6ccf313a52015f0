package dev.argus.config;

/**
 * Section {@code store}: which backend holds knowledge, runs and the other stores. {@code analyzeCheckMs}: how often
 * the service looks for tables whose planner statistics are stale and refreshes them, on either store (0: never).
 */
public record StoreConf(String type, long analyzeCheckMs) {

  public static final String SQLITE = "sqlite";
  public static final String POSTGRES = "postgres";

  public static StoreConf from(Settings s) {
    return new StoreConf(s.oneOf("type", SQLITE, SQLITE, POSTGRES), s.longIn("analyzeCheckMs", 30_000, 0, 86_400_000));
  }

  public boolean isPostgres() {
    return POSTGRES.equals(type);
  }
}
