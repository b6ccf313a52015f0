package dev.argus.records;

import dev.argus.common.ApiException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The evidence behind {@code seller_profile} and {@code transaction_history}: reads a seller's records as of a time and
 * returns {@code {sellerId, asOf, items: [...]}}, one item per fact or signal, in a fixed order so that the caller can
 * cite them by index. Nothing here is a guess: a value that cannot be computed from the records is reported unknown.
 */
public final class SellerSignals {

  static final int MAX_TRANSACTIONS = RecordQuery.MAX_INTERNAL_LIMIT;
  static final int MAX_LISTED = 5;

  private final RecordStore store;

  public SellerSignals(RecordStore store) {
    this.store = store;
  }

  private Future<JsonObject> seller(String sellerId, Long asOf) {
    return store.get(sellerId).map(found -> {
      JsonObject seller = found.filter(b -> RecordKind.SELLER.wire().equals(b.getString("kind")))
          .map(b -> AsOf.view(b, asOf)).orElse(null);
      if (seller == null) {
        throw ApiException.notFound("unknown_seller", "no seller '" + sellerId + "'"
            + (asOf == null ? "" : " as of " + RecordQuery.iso(asOf)));
      }
      return seller;
    });
  }

  /** Items: the application (identity, identifiers, account age), payouts and their accounts, risk events, cases. */
  public Future<JsonObject> profile(String sellerId, Long asOf) {
    return seller(sellerId, asOf).compose(seller -> {
      long now = asOf == null ? System.currentTimeMillis() : asOf;
      Future<List<JsonObject>> payouts = store.query(RecordQuery.of(List.of(RecordKind.PAYOUT), sellerId, null, asOf,
          MAX_TRANSACTIONS));
      Future<List<JsonObject>> events = store.query(RecordQuery.ofSubject(List.of(RecordKind.RISK_EVENT), sellerId,
          asOf, RecordQuery.MAX_LIMIT));
      Future<List<JsonObject>> cases = store.query(RecordQuery.ofSubject(List.of(RecordKind.CASE), sellerId, asOf,
          RecordQuery.MAX_LIMIT));
      Future<TransactionStats.Span> txs = store.transactionSpan(sellerId, asOf);
      return Future.all(payouts, events, cases, txs).map(all -> new JsonObject().put("sellerId", sellerId)
          .put("asOf", RecordQuery.iso(asOf)).put("items", new JsonArray()
              .add(application(seller, now, asOf != null))
              .add(activity(txs.result(), payouts.result(), seller))
              .add(riskEvents(events.result()))
              .add(cases(cases.result(), asOf))));
    });
  }

  static JsonObject application(JsonObject s, long now, boolean asOfView) {
    long created = AsOf.eventTime(s);
    JsonObject item = new JsonObject().put("type", "application").put("entity", "[entity:seller:" + s.getString("id") + "]");
    for (String f : List.of("legalName", "businessName", "country", "createdAt", "email", "phone", "website",
        "address", "taxIdFp", "bankAccountFp", "bankAccountLast4", "status")) {
      if (s.containsKey(f)) {
        item.put(f, s.getValue(f));
      }
    }
    item.put("accountAgeDays", Duration.ofMillis(Math.max(0, now - created)).toDays());
    String email = s.getString("email");
    item.put("emailDomain", email == null ? null : WatchlistKeys.emailDomain(email));
    item.put("websiteDomain", s.getString("website") == null ? null : WatchlistKeys.domain(s.getString("website")));
    item.put("deviceCount", s.getJsonArray("deviceIds", new JsonArray()).size())
        .put("ipCount", s.getJsonArray("ips", new JsonArray()).size());
    JsonObject unknown = new JsonObject().put("domainAgeDays", "no domain registration data in the records");
    if (asOfView) {
      unknown.put("status", "a seller's status has no time of its own: withheld in an as-of view");
    }
    return item.put("unknown", unknown);
  }

  static JsonObject activity(TransactionStats.Span txs, List<JsonObject> payouts, JsonObject seller) {
    JsonObject item = new JsonObject().put("type", "activity").put("transactions", txs.count())
        .put("firstTransactionAt", RecordQuery.iso(txs.firstAt()))
        .put("lastTransactionAt", RecordQuery.iso(txs.lastAt()))
        .put("payouts", payouts.size());
    Map<String, Double> totals = new LinkedHashMap<>();
    Map<String, JsonObject> accounts = new LinkedHashMap<>();
    for (JsonObject p : payouts) {
      totals.merge(p.getString("currency"), p.getDouble("amount"), Double::sum);
      JsonObject acct = accounts.computeIfAbsent(p.getString("bankAccountFp"), fp -> new JsonObject()
          .put("bankAccountFp", fp).put("last4", p.getString("bankAccountLast4")).put("firstAt", p.getString("at"))
          .put("payouts", 0).put("registered", fp.equals(seller.getString("bankAccountFp"))));
      acct.put("payouts", acct.getInteger("payouts") + 1).put("lastAt", p.getString("at"));
    }
    JsonObject sums = new JsonObject();
    totals.forEach((c, a) -> sums.put(c, TransactionStats.round(a)));
    long unregistered = accounts.values().stream().filter(a -> !a.getBoolean("registered")).count();
    return item.put("payoutTotals", sums).put("payoutAccounts", new JsonArray(List.copyOf(accounts.values())))
        .put("payoutAccountsNotRegistered", unregistered);
  }

  static JsonObject riskEvents(List<JsonObject> events) {
    Map<String, Integer> bySeverity = new LinkedHashMap<>();
    for (String s : RecordValidator.SEVERITIES) {
      bySeverity.put(s, 0);
    }
    events.forEach(e -> bySeverity.merge(e.getString("severity"), 1, Integer::sum));
    JsonArray latest = new JsonArray();
    events.stream().sorted(Comparator.comparing((JsonObject e) -> AsOf.eventTime(e)).reversed()).limit(MAX_LISTED)
        .forEach(e -> latest.add(new JsonObject().put("id", e.getString("id")).put("at", e.getString("at"))
            .put("type", e.getString("type")).put("severity", e.getString("severity"))));
    return new JsonObject().put("type", "risk_events").put("count", events.size())
        .put("bySeverity", new JsonObject(new LinkedHashMap<>(bySeverity))).put("latest", latest);
  }

  static JsonObject cases(List<JsonObject> cases, Long asOf) {
    JsonArray list = new JsonArray();
    Map<String, Integer> byOutcome = new LinkedHashMap<>();
    for (String o : RecordValidator.OUTCOMES) {
      byOutcome.put(o, 0);
    }
    for (JsonObject c : cases) {
      JsonObject v = AsOf.view(c, asOf);
      byOutcome.merge(v.getString("outcome"), 1, Integer::sum);
      list.add(new JsonObject().put("id", v.getString("id")).put("outcome", v.getString("outcome"))
          .put("openedAt", v.getString("openedAt")).put("closedAt", v.getString("closedAt"))
          .put("entity", "[entity:case:" + v.getString("id") + "]"));
    }
    return new JsonObject().put("type", "cases").put("count", cases.size())
        .put("byOutcome", new JsonObject(new LinkedHashMap<>(byOutcome))).put("cases", list);
  }

  /**
   * Items: velocity, amount z-score, refund ratio, chargeback ratio, and with a transaction its buyer's refund ratio.
   * The window ends at {@code asOf}, or without it at the seller's latest transaction (said in {@code windowEndSource})
   * — a world loaded from the past then still shows its own recent activity. Reads are bounded by the windows: the
   * transactions of the {@value TransactionStats#HISTORY_DAYS} days before the target (or the window end), reduced in
   * SQL to id, time, amount and currency; the reversals dated in the ratio window; the buyer's counts from SQL.
   */
  public Future<JsonObject> history(String sellerId, Long asOf, String transactionId) {
    Future<Long> windowEnd = asOf != null ? Future.succeededFuture(asOf) : store.transactionSpan(sellerId, null)
        .map(span -> span.lastAt() != null ? span.lastAt() : System.currentTimeMillis());
    Future<JsonObject> target = transactionId == null ? Future.succeededFuture(null) : target(sellerId, asOf,
        transactionId);
    Future<JsonObject> seller = seller(sellerId, asOf);
    return Future.join(seller, windowEnd, target).transform(done -> done.succeeded() ? Future.succeededFuture()
        : Future.failedFuture(seller.failed() ? seller.cause() : done.cause())).compose(ok -> {
      long end = windowEnd.result();
      JsonObject targetBody = target.result();
      long day = Duration.ofDays(1).toMillis();
      long historyEnd = targetBody == null ? end : AsOf.eventTime(targetBody);
      Future<List<TransactionStats.Tx>> txs = store.transactions(sellerId,
          historyEnd - TransactionStats.HISTORY_DAYS * day - 1, end, MAX_TRANSACTIONS);
      Future<List<TransactionStats.Reversal>> reversals = store.reversals(sellerId,
          end - TransactionStats.RATIO_DAYS * day, end, MAX_TRANSACTIONS);
      String buyerId = targetBody == null ? null : targetBody.getString("buyerId");
      Future<TransactionStats.BuyerHistory> buyer = buyerId == null ? Future.succeededFuture(null)
          : store.buyerHistory(buyerId, transactionId, end - TransactionStats.BUYER_DAYS * day, end);
      return Future.all(txs, reversals, buyer).map(all -> {
        List<TransactionStats.Tx> list = txs.result();
        TransactionStats.Tx targetTx = targetBody != null ? TransactionStats.Tx.of(targetBody)
            : list.isEmpty() ? null : list.get(list.size() - 1);
        List<TransactionStats.Tx> refunds = reversals.result().stream().filter(r -> "refund".equals(r.kind()))
            .map(TransactionStats.Reversal::tx).toList();
        List<TransactionStats.Tx> chargebacks = reversals.result().stream()
            .filter(r -> "chargeback".equals(r.kind())).map(TransactionStats.Reversal::tx).toList();
        JsonObject velocity = TransactionStats.velocity(list, end).put("windowEnd", RecordQuery.iso(end))
            .put("windowEndSource", asOf != null ? "asOf" : list.isEmpty() ? "now" : "lastTransaction");
        JsonArray items = new JsonArray().add(velocity)
            .add(TransactionStats.amountZScore(list, targetTx))
            .add(TransactionStats.ratio("refund_ratio", list, refunds, end))
            .add(TransactionStats.ratio("chargeback_ratio", list, chargebacks, end));
        if (buyer.result() != null) {
          items.add(TransactionStats.buyerRefundRatio(buyerId, buyer.result()));
        }
        return new JsonObject().put("sellerId", sellerId).put("asOf", RecordQuery.iso(asOf)).put("items", items);
      });
    });
  }

  /** The seller's transaction {@code transactionId} as known at {@code asOf}; 404 otherwise. */
  private Future<JsonObject> target(String sellerId, Long asOf, String transactionId) {
    return store.get(transactionId).map(found -> found
        .filter(b -> RecordKind.TRANSACTION.wire().equals(b.getString("kind")) && sellerId.equals(b.getString("sellerId"))
            && (asOf == null || AsOf.eventTime(b) <= asOf))
        .orElseThrow(() -> ApiException.notFound("unknown_transaction", "no transaction '" + transactionId
            + "' of this seller (as of the requested time)")));
  }

  /** The seller's identifiers as of {@code asOf}, for watchlist matching: names, e-mail, phone, IPs, domains, accounts. */
  Future<JsonObject> identifiers(String sellerId, Long asOf) {
    return seller(sellerId, asOf).compose(seller -> store.query(RecordQuery.of(List.of(RecordKind.PAYOUT), sellerId,
        null, asOf, MAX_TRANSACTIONS)).map(payouts -> {
          Set<String> accounts = new LinkedHashSet<>();
          if (seller.getString("bankAccountFp") != null) {
            accounts.add(seller.getString("bankAccountFp"));
          }
          payouts.forEach(p -> accounts.add(p.getString("bankAccountFp")));
          return seller.put("payoutAccountFps", new JsonArray(List.copyOf(accounts)));
        }));
  }
}
