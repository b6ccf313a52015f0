package dev.argus.records;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Fraud-domain records in their stored form. Two implementations (embedded SQLite and PostgreSQL) pass one contract
 * test suite ({@code RecordStoreContract}). Every method is non-blocking. Reads return stored bodies; the time filter of
 * a query applies to event time, and {@link AsOf#view} is the caller's (the service's) business.
 */
public interface RecordStore {

  /** What one upsert did: counts, and the records that were created or changed (in batch order, last one per id). */
  record UpsertCounts(int created, int updated, int unchanged, List<DomainRecord> changed) {
  }

  /** A watchlist name entry's id and normalized name, a candidate for fuzzy matching. */
  record NameCandidate(String recordId, String name) {
  }

  /**
   * Inserts or replaces the records by id in one transaction (all or nothing). A record equal to the stored one is
   * {@code unchanged} and not rewritten, so loading the same file twice changes nothing. Labels, when present, are
   * written to the labels table (never into the stored form).
   */
  Future<UpsertCounts> upsert(List<DomainRecord> records);

  /** Deletes the records with these ids (and their labels); returns the stored bodies of those that existed. */
  Future<List<JsonObject>> delete(List<String> ids);

  Future<Optional<JsonObject>> get(String id);

  /** The records a query selects, in event-time order then id ({@code from}, and the smaller of {@code to}/{@code asOf}). */
  Future<List<JsonObject>> query(RecordQuery query);

  /** Watchlist entries whose match key ({@link WatchlistKeys}) is one of {@code keys}. */
  Future<List<JsonObject>> watchlistByKeys(Collection<String> keys);

  /** Watchlist entries of one type (e.g. every {@code ip_range}), at most {@code limit}, by id. */
  Future<List<JsonObject>> watchlistOfType(String type, int limit);

  /**
   * Watchlist name entries sharing trigrams with {@code normalizedName} (PostgreSQL: pg_trgm similarity of at least
   * 0.3; SQLite: the FTS5 trigram index), at most {@code limit}; callers score them with {@link Trigrams#similarity}.
   */
  Future<List<NameCandidate>> watchlistNames(String normalizedName, int limit);

  /**
   * A seller's transactions dated in {@code (fromMs, toMs]}, reduced to what the trading signals need (id, time,
   * amount, currency; read from the stored form in SQL, no whole bodies), in time then id order, at most {@code limit}.
   */
  Future<List<TransactionStats.Tx>> transactions(String sellerId, long fromMs, long toMs, int limit);

  /**
   * Refunds and chargebacks dated in {@code (fromMs, toMs]} of the seller's transactions dated by {@code toMs}, reduced
   * like {@link #transactions}, in time then id order, at most {@code limit}.
   */
  Future<List<TransactionStats.Reversal>> reversals(String sellerId, long fromMs, long toMs, int limit);

  /** How many transactions the seller has dated by {@code toMs} (all when null), and the first and last one's time. */
  Future<TransactionStats.Span> transactionSpan(String sellerId, Long toMs);

  /**
   * A buyer's purchase history as of {@code toMs}, counted in SQL: its transactions dated in {@code (fromMs, toMs]}
   * other than {@code exceptId}, and the refunds and chargebacks of those dated by {@code toMs} (nothing later leaks).
   */
  Future<TransactionStats.BuyerHistory> buyerHistory(String buyerId, String exceptId, long fromMs, long toMs);

  /** Records of a kind (all kinds when null). */
  Future<Long> count(RecordKind kind);
}
