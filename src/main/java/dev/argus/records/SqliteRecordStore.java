package dev.argus.records;

import dev.argus.store.SqlParams;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Records in the embedded SQLite file (JSON as text; watchlist names in an FTS5 trigram table); schema
 * {@code db/migration/sqlite/V7__records.sql}. Writes are serialized in process and run as one prepared statement
 * executed as a batch per table inside {@code BEGIN IMMEDIATE} ({@link Database#inTransaction}).
 */
public final class SqliteRecordStore extends SqlRecordStore {

  private final Object lock = new Object();
  private Future<?> tail = Future.succeededFuture();

  public SqliteRecordStore(Database db) {
    super(db);
  }

  @Override
  SqlParams params() {
    return new SqlParams(false);
  }

  /** One parameter for the whole list (a JSON array read by {@code json_each}): one statement text for any size. */
  @Override
  String in(String column, SqlParams p, List<String> ids) {
    return column + " IN (SELECT value FROM json_each(" + p.add(new io.vertx.core.json.JsonArray(ids).encode()) + "))";
  }

  @Override
  Future<Void> insertMany(SqlConnection conn, Insert insert, List<Object[]> rows) {
    if (rows.isEmpty()) {
      return Future.succeededFuture();
    }
    String sql = "INSERT INTO " + insert.table() + " (" + String.join(", ", insert.columns()) + ") VALUES ("
        + insert.columns().stream().map(c -> "?").collect(Collectors.joining(", ")) + ") " + insert.onConflict();
    List<Tuple> batch = new ArrayList<>(rows.size());
    for (Object[] row : rows) {
      batch.add(Tuple.wrap(row));
    }
    return conn.preparedQuery(sql).executeBatch(batch).mapEmpty();
  }

  @Override
  String inIds(String column, String subquery) {
    return column + " IN (" + subquery + ")";
  }

  @Override
  String jsonText(String column, String field) {
    return "json_extract(" + column + ", '$." + field + "')";
  }

  @Override
  JsonObject readJson(Row row, String column) {
    return new JsonObject(row.getString(column));
  }

  @Override
  <T> Future<T> write(Supplier<Future<T>> action) {
    synchronized (lock) {
      Future<T> next = tail.transform(ignored -> action.get());
      tail = next;
      return next;
    }
  }

  /** Candidates from the FTS5 trigram index: names holding any of the query's trigrams (OR of quoted trigrams). */
  @Override
  public Future<List<NameCandidate>> watchlistNames(String normalizedName, int limit) {
    Set<String> grams = new java.util.TreeSet<>();
    for (String word : normalizedName.split(" ")) {
      for (int i = 0; i + 3 <= word.length(); i++) {
        grams.add(word.substring(i, i + 3));
      }
    }
    if (grams.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    String match = grams.stream().map(g -> "\"" + g.replace("\"", "\"\"") + "\"").collect(Collectors.joining(" OR "));
    return db.pool().preparedQuery("SELECT record_id, name FROM watchlist_names WHERE watchlist_names MATCH ? "
            + "ORDER BY rank LIMIT ?").execute(Tuple.of(match, limit))
        .map(rows -> {
          List<NameCandidate> out = new ArrayList<>();
          for (Row row : rows) {
            out.add(new NameCandidate(row.getString("record_id"), row.getString("name")));
          }
          return out;
        });
  }
}
