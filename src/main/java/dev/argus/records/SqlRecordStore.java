package dev.argus.records;

import dev.argus.store.SqlParams;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The logic both record stores share: upsert by id with content hashes (one transaction per batch; unchanged records
 * are not rewritten), the side tables of cases ({@code record_subjects}), watchlist names and labels, and the query
 * builder. Subclasses give the dialect: placeholders, bulk inserts, JSON columns, trigram candidates.
 */
abstract class SqlRecordStore implements RecordStore {

  /** Column types of bulk inserts. */
  enum Type { TEXT, BIGINT, JSON }

  /** A bulk insert: table, columns with their types, and the conflict clause. */
  record Insert(String table, List<String> columns, List<Type> types, String onConflict) {
  }

  static final Insert RECORDS = new Insert("records",
      List.of("id", "kind", "at", "seller_id", "buyer_id", "ref_id", "subject_id", "match_key", "hash", "body",
          "updated_at"),
      List.of(Type.TEXT, Type.TEXT, Type.BIGINT, Type.TEXT, Type.TEXT, Type.TEXT, Type.TEXT, Type.TEXT, Type.TEXT,
          Type.JSON, Type.BIGINT),
      "ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, at = excluded.at, seller_id = excluded.seller_id, "
          + "buyer_id = excluded.buyer_id, ref_id = excluded.ref_id, subject_id = excluded.subject_id, "
          + "match_key = excluded.match_key, hash = excluded.hash, body = excluded.body, updated_at = excluded.updated_at");
  static final Insert SUBJECTS = new Insert("record_subjects", List.of("subject_id", "record_id"),
      List.of(Type.TEXT, Type.TEXT), "ON CONFLICT DO NOTHING");
  static final Insert LABELS = new Insert("record_labels", List.of("record_id", "kind", "label", "updated_at"),
      List.of(Type.TEXT, Type.TEXT, Type.JSON, Type.BIGINT),
      "ON CONFLICT (record_id) DO UPDATE SET kind = excluded.kind, label = excluded.label, "
          + "updated_at = excluded.updated_at");
  static final Insert NAMES = new Insert("watchlist_names", List.of("record_id", "name"),
      List.of(Type.TEXT, Type.TEXT), "");

  final Database db;

  SqlRecordStore(Database db) {
    this.db = db;
  }

  // ---- dialect ---------------------------------------------------------------------------------------------------

  /** Query parameters with the dialect's placeholders. */
  abstract SqlParams params();

  /** {@code column IN (...)} / {@code column = ANY(...)} over {@code ids}, binding them to {@code p}. */
  abstract String in(String column, SqlParams p, List<String> ids);

  /** Inserts {@code rows} (values in the order of the insert's columns) with as few statements as the dialect allows. */
  abstract Future<Void> insertMany(SqlConnection conn, Insert insert, List<Object[]> rows);

  abstract JsonObject readJson(Row row, String column);

  /** Runs a write; SQLite serializes them in process. */
  <T> Future<T> write(Supplier<Future<T>> action) {
    return action.get();
  }


  // ---- writes ----------------------------------------------------------------------------------------------------

  private record Existing(String hash, String kind) {
  }

  @Override
  public Future<UpsertCounts> upsert(List<DomainRecord> records) {
    if (records.isEmpty()) {
      return Future.succeededFuture(new UpsertCounts(0, 0, 0, List.of()));
    }
    List<String> ids = records.stream().map(DomainRecord::id).distinct().toList();
    return write(() -> db.inTransaction(conn -> existing(conn, ids).compose(existing -> {
      int created = 0;
      int updated = 0;
      int unchanged = 0;
      Map<String, DomainRecord> changed = new LinkedHashMap<>();
      Map<String, String> hashes = new HashMap<>();
      existing.forEach((id, e) -> hashes.put(id, e.hash()));
      for (DomainRecord r : records) {
        String before = hashes.put(r.id(), r.hash());
        if (before == null) {
          created++;
        } else if (before.equals(r.hash())) {
          unchanged++;
          continue;
        } else {
          updated++;
        }
        changed.remove(r.id());
        changed.put(r.id(), r);
      }
      List<DomainRecord> rows = List.copyOf(changed.values());
      UpsertCounts counts = new UpsertCounts(created, updated, unchanged, rows);
      return writeChanged(conn, rows, existing)
          .compose(v -> writeLabels(conn, records))
          .map(counts);
    })));
  }

  private Future<Map<String, Existing>> existing(SqlConnection conn, List<String> ids) {
    SqlParams p = params();
    String sql = "SELECT id, hash, kind FROM records WHERE " + in("id", p, ids);
    return conn.preparedQuery(sql).execute(p.tuple).map(rows -> {
      Map<String, Existing> out = new HashMap<>();
      for (Row row : rows) {
        out.put(row.getString("id"), new Existing(row.getString("hash"), row.getString("kind")));
      }
      return out;
    });
  }

  private Future<Void> writeChanged(SqlConnection conn, List<DomainRecord> rows, Map<String, Existing> existing) {
    if (rows.isEmpty()) {
      return Future.succeededFuture();
    }
    long now = System.currentTimeMillis();
    List<Object[]> values = new ArrayList<>(rows.size());
    List<String> caseIds = new ArrayList<>();
    List<String> watchIds = new ArrayList<>();
    List<Object[]> subjects = new ArrayList<>();
    List<Object[]> names = new ArrayList<>();
    for (DomainRecord r : rows) {
      values.add(new Object[] {r.id(), r.kind().wire(), r.at() == null ? 0L : r.at(), r.sellerId(), r.buyerId(),
          r.refId(), r.subjectId(), r.matchKey(), r.hash(), r.json(), now});
      Existing before = existing.get(r.id());
      if (r.kind() == RecordKind.CASE || (before != null && before.kind().equals(RecordKind.CASE.wire()))) {
        caseIds.add(r.id());
      }
      if (r.kind() == RecordKind.WATCHLIST_ENTRY
          || (before != null && before.kind().equals(RecordKind.WATCHLIST_ENTRY.wire()))) {
        watchIds.add(r.id());
      }
      r.subjects().forEach(s -> subjects.add(new Object[] {s, r.id()}));
      if (r.watchName() != null) {
        names.add(new Object[] {r.id(), r.watchName()});
      }
    }
    return insertMany(conn, RECORDS, values)
        .compose(v -> deleteWhere(conn, "record_subjects", "record_id", caseIds))
        .compose(v -> insertMany(conn, SUBJECTS, subjects))
        .compose(v -> deleteWhere(conn, "watchlist_names", "record_id", watchIds))
        .compose(v -> insertMany(conn, NAMES, names));
  }

  private Future<Void> writeLabels(SqlConnection conn, List<DomainRecord> records) {
    Map<String, Object[]> labels = new LinkedHashMap<>();
    long now = System.currentTimeMillis();
    for (DomainRecord r : records) {
      if (r.label() != null) {
        labels.put(r.id(), new Object[] {r.id(), r.kind().wire(), r.label().encode(), now});
      }
    }
    return insertMany(conn, LABELS, List.copyOf(labels.values()));
  }

  private Future<Void> deleteWhere(SqlClient conn, String table, String column, List<String> ids) {
    if (ids.isEmpty()) {
      return Future.succeededFuture();
    }
    SqlParams p = params();
    return conn.preparedQuery("DELETE FROM " + table + " WHERE " + in(column, p, ids)).execute(p.tuple).mapEmpty();
  }

  @Override
  public Future<List<JsonObject>> delete(List<String> ids) {
    if (ids.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    return write(() -> db.inTransaction(conn -> {
      SqlParams p = params();
      return conn.preparedQuery("SELECT body FROM records WHERE " + in("id", p, ids)).execute(p.tuple)
          .compose(rows -> {
            List<JsonObject> bodies = bodies(rows);
            return deleteWhere(conn, "records", "id", ids)
                .compose(v -> deleteWhere(conn, "record_subjects", "record_id", ids))
                .compose(v -> deleteWhere(conn, "watchlist_names", "record_id", ids))
                .compose(v -> deleteWhere(conn, "record_labels", "record_id", ids))
                .map(bodies);
          });
    }));
  }

  // ---- reads -----------------------------------------------------------------------------------------------------

  @Override
  public Future<Optional<JsonObject>> get(String id) {
    SqlParams p = params();
    return db.pool().preparedQuery("SELECT body FROM records WHERE id = " + p.add(id)).execute(p.tuple)
        .map(rows -> bodies(rows).stream().findFirst());
  }

  @Override
  public Future<List<JsonObject>> query(RecordQuery q) {
    SqlParams p = params();
    StringBuilder sql = new StringBuilder("SELECT r.body FROM records r WHERE 1 = 1");
    if (!q.kinds().isEmpty()) {
      sql.append(" AND ").append(in("r.kind", p, q.kinds().stream().map(RecordKind::wire).toList()));
    }
    if (q.sellerId() != null) {
      sql.append(" AND ").append(sellerScope(q, p));
    }
    if (q.buyerId() != null) {
      sql.append(" AND r.buyer_id = ").append(p.add(q.buyerId()));
    }
    if (q.subjectId() != null) {
      sql.append(" AND ").append(subjectScope(q, p));
    }
    if (q.fromMs() != null) {
      sql.append(" AND r.at >= ").append(p.add(q.fromMs()));
    }
    if (q.upperMs() != null) {
      sql.append(" AND r.at <= ").append(p.add(q.upperMs()));
    }
    sql.append(" ORDER BY r.at, r.id LIMIT ").append(p.add(q.limit())).append(" OFFSET ").append(p.add(q.offset()));
    return db.pool().preparedQuery(sql.toString()).execute(p.tuple).map(this::bodies);
  }

  /** The text of a top-level field of a stored body ({@code field} is a constant, never input). */
  abstract String jsonText(String column, String field);

  @Override
  public Future<List<TransactionStats.Tx>> transactions(String sellerId, long fromMs, long toMs, int limit) {
    SqlParams p = params();
    String sql = "SELECT id, at, " + jsonText("body", "amount") + " AS amount, " + jsonText("body", "currency")
        + " AS currency FROM records WHERE seller_id = " + p.add(sellerId) + " AND kind = 'transaction' AND at > "
        + p.add(fromMs) + " AND at <= " + p.add(toMs) + " ORDER BY at, id LIMIT " + p.add(limit);
    return db.pool().preparedQuery(sql).execute(p.tuple).map(rows -> {
      List<TransactionStats.Tx> out = new ArrayList<>(rows.size());
      for (Row row : rows) {
        out.add(new TransactionStats.Tx(row.getString("id"), row.getLong("at"), number(row.getValue("amount")),
            row.getString("currency")));
      }
      return out;
    });
  }

  /**
   * {@code column} is one of the ids the subquery selects, read as index probes of {@code column} (PostgreSQL
   * otherwise merge-joins over the whole reference index: 0.3 s for one seller of the 1,000,000-transaction world).
   */
  abstract String inIds(String column, String subquery);

  /** The seller's transactions ({@code records_seller_idx}), then their reversals ({@code records_ref_idx}). */
  @Override
  public Future<List<TransactionStats.Reversal>> reversals(String sellerId, long fromMs, long toMs, int limit) {
    SqlParams p = params();
    String sql = "SELECT r.id, r.kind, r.at, " + jsonText("r.body", "amount") + " AS amount FROM records r WHERE "
        + inIds("r.ref_id", "SELECT t.id FROM records t WHERE t.seller_id = " + p.add(sellerId)
            + " AND t.kind = 'transaction' AND t.at <= " + p.add(toMs))
        + " AND r.kind IN ('refund', 'chargeback') AND r.at > " + p.add(fromMs)
        + " AND r.at <= " + p.add(toMs) + " ORDER BY r.at, r.id LIMIT " + p.add(limit);
    return db.pool().preparedQuery(sql).execute(p.tuple).map(rows -> {
      List<TransactionStats.Reversal> out = new ArrayList<>(rows.size());
      for (Row row : rows) {
        out.add(new TransactionStats.Reversal(row.getString("kind"), new TransactionStats.Tx(row.getString("id"),
            row.getLong("at"), number(row.getValue("amount")), null)));
      }
      return out;
    });
  }

  @Override
  public Future<TransactionStats.Span> transactionSpan(String sellerId, Long toMs) {
    SqlParams p = params();
    String sql = "SELECT COUNT(*) AS n, MIN(at) AS first, MAX(at) AS last FROM records WHERE seller_id = "
        + p.add(sellerId) + " AND kind = 'transaction'" + (toMs == null ? "" : " AND at <= " + p.add(toMs));
    return db.pool().preparedQuery(sql).execute(p.tuple).map(rows -> {
      Row row = rows.iterator().next();
      return new TransactionStats.Span(row.getLong("n"), row.getLong("first"), row.getLong("last"));
    });
  }

  @Override
  public Future<TransactionStats.BuyerHistory> buyerHistory(String buyerId, String exceptId, long fromMs, long toMs) {
    SqlParams p = params();
    StringBuilder sql = new StringBuilder("SELECT (SELECT COUNT(*) FROM records t WHERE ")
        .append(purchases(p, buyerId, exceptId, fromMs, toMs)).append(") AS purchases");
    for (String kind : List.of("refund", "chargeback")) {
      sql.append(", (SELECT COUNT(*) FROM records r WHERE ")
          .append(inIds("r.ref_id", "SELECT t.id FROM records t WHERE " + purchases(p, buyerId, exceptId, fromMs, toMs)))
          .append(" AND r.kind = '").append(kind).append("' AND r.at <= ").append(p.add(toMs)).append(") AS ")
          .append(kind).append('s');
    }
    return db.pool().preparedQuery(sql.toString()).execute(p.tuple).map(rows -> {
      Row row = rows.iterator().next();
      return new TransactionStats.BuyerHistory(row.getLong("purchases"), row.getLong("refunds"),
          row.getLong("chargebacks"));
    });
  }

  private static String purchases(SqlParams p, String buyerId, String exceptId, long fromMs, long toMs) {
    return "t.buyer_id = " + p.add(buyerId) + " AND t.kind = 'transaction' AND t.at > " + p.add(fromMs)
        + " AND t.at <= " + p.add(toMs) + " AND t.id <> " + p.add(exceptId == null ? "" : exceptId);
  }

  private static double number(Object v) {
    return v instanceof Number n ? n.doubleValue() : v == null ? 0 : Double.parseDouble(v.toString());
  }

  private static final List<RecordKind> REVERSALS = List.of(RecordKind.REFUND, RecordKind.CHARGEBACK);

  /** The seller's own rows ({@code seller_id}), and refunds/chargebacks of its transactions, as the kinds need. */
  private String sellerScope(RecordQuery q, SqlParams p) {
    boolean all = q.kinds().isEmpty();
    boolean reversals = all || q.kinds().stream().anyMatch(REVERSALS::contains);
    boolean own = all || q.kinds().stream().anyMatch(k -> !REVERSALS.contains(k));
    String ownSql = own ? "r.seller_id = " + p.add(q.sellerId()) : null;
    String reversalSql = reversals ? "r.ref_id IN (SELECT t.id FROM records t WHERE t.seller_id = "
        + p.add(q.sellerId()) + " AND t.kind = 'transaction')" : null;
    if (own && reversals) {
      return "(" + ownSql + " OR " + reversalSql + ")";
    }
    return own ? ownSql : reversalSql;
  }

  /** Risk events about the subject ({@code subject_id}) and cases naming it ({@code record_subjects}). */
  private String subjectScope(RecordQuery q, SqlParams p) {
    boolean all = q.kinds().isEmpty();
    boolean cases = all || q.kinds().contains(RecordKind.CASE);
    boolean direct = all || q.kinds().stream().anyMatch(k -> k != RecordKind.CASE);
    String directSql = direct ? "r.subject_id = " + p.add(q.subjectId()) : null;
    String caseSql = cases ? "r.id IN (SELECT s.record_id FROM record_subjects s WHERE s.subject_id = "
        + p.add(q.subjectId()) + ")" : null;
    if (direct && cases) {
      return "(" + directSql + " OR " + caseSql + ")";
    }
    return direct ? directSql : caseSql;
  }

  @Override
  public Future<List<JsonObject>> watchlistByKeys(Collection<String> keys) {
    if (keys.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    SqlParams p = params();
    String sql = "SELECT body FROM records WHERE kind = 'watchlist_entry' AND "
        + in("match_key", p, List.copyOf(keys)) + " ORDER BY id";
    return db.pool().preparedQuery(sql).execute(p.tuple).map(this::bodies);
  }

  @Override
  public Future<List<JsonObject>> watchlistOfType(String type, int limit) {
    SqlParams p = params();
    // keys are "type:value": the range [type + ':', type + ';') holds exactly that type's keys (';' follows ':')
    String sql = "SELECT body FROM records WHERE kind = 'watchlist_entry' AND match_key >= " + p.add(type + ":")
        + " AND match_key < " + p.add(type + ";") + " ORDER BY id LIMIT " + p.add(limit);
    return db.pool().preparedQuery(sql).execute(p.tuple).map(this::bodies);
  }

  @Override
  public Future<Long> count(RecordKind kind) {
    SqlParams p = params();
    String sql = "SELECT COUNT(*) FROM records" + (kind == null ? "" : " WHERE kind = " + p.add(kind.wire()));
    return db.pool().preparedQuery(sql).execute(p.tuple).map(rows -> rows.iterator().next().getLong(0));
  }

  List<JsonObject> bodies(RowSet<Row> rows) {
    List<JsonObject> out = new ArrayList<>(rows.size());
    for (Row row : rows) {
      out.add(readJson(row, "body"));
    }
    return out;
  }
}
