package dev.argus.config;

/** Section {@code store}: which backend holds knowledge, runs and the other stores. */
public record StoreConf(String type) {

  public static final String SQLITE = "sqlite";
  public static final String POSTGRES = "postgres";

  public static StoreConf from(Settings s) {
    return new StoreConf(s.oneOf("type", SQLITE, SQLITE, POSTGRES));
  }

  public boolean isPostgres() {
    return POSTGRES.equals(type);
  }
}
