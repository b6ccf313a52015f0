package dev.argus.records;

import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks identifiers against the watchlist held as records: exact matches of e-mails, e-mail domains, phones, IPs,
 * domains and bank-account fingerprints by their normal forms ({@link WatchlistKeys}); IPs inside watched CIDR ranges;
 * names by trigram similarity ({@link Trigrams}, candidates from the store's trigram index) at or above the query's
 * threshold. The reply {@code {checked, items}} lists one item per hit (strongest first: exact, range, then fuzzy by
 * similarity) and, last, a {@code summary} item with what was checked — so "no match" is evidence too.
 */
public final class WatchlistMatcher {

  static final int MAX_RANGES = 10_000;
  static final int NAME_CANDIDATES = 50;

  private final RecordStore store;
  private final SellerSignals sellers;

  public WatchlistMatcher(RecordStore store, SellerSignals sellers) {
    this.store = store;
    this.sellers = sellers;
  }

  /** What is checked: identifier values by kind, and where each came from. */
  private static final class Checked {
    final Map<String, Set<String>> values = new LinkedHashMap<>();

    void add(String kind, String value) {
      if (value != null && !value.isBlank()) {
        values.computeIfAbsent(kind, k -> new LinkedHashSet<>()).add(value);
      }
    }

    Set<String> of(String kind) {
      return values.getOrDefault(kind, Set.of());
    }
  }

  public Future<JsonObject> match(WatchlistQuery q) {
    Future<JsonObject> seller = q.sellerId() == null ? Future.succeededFuture(null)
        : sellers.identifiers(q.sellerId(), q.asOfMs());
    return seller.compose(s -> {
      Checked c = new Checked();
      if (s != null) {
        c.add("name", s.getString("legalName"));
        c.add("name", s.getString("businessName"));
        c.add("email", s.getString("email"));
        c.add("phone", s.getString("phone"));
        c.add("domain", s.getString("website") == null ? null : WatchlistKeys.domain(s.getString("website")));
        s.getJsonArray("ips", new JsonArray()).forEach(ip -> c.add("ip", String.valueOf(ip)));
        s.getJsonArray("payoutAccountFps", new JsonArray()).forEach(fp -> c.add("bank_account", String.valueOf(fp)));
      }
      q.names().forEach(v -> c.add("name", v));
      q.emails().forEach(v -> c.add("email", v));
      q.phones().forEach(v -> c.add("phone", v));
      q.ips().forEach(v -> c.add("ip", v));
      q.domains().forEach(v -> c.add("domain", WatchlistKeys.domain(v)));
      q.bankAccountFps().forEach(v -> c.add("bank_account", v));
      c.of("email").forEach(e -> c.add("domain", WatchlistKeys.emailDomain(e)));
      return Future.all(exact(c), ranges(c), fuzzy(c, q.minSimilarity())).map(all -> {
        List<JsonObject> hits = new ArrayList<>();
        hits.addAll(all.resultAt(0));
        hits.addAll(all.resultAt(1));
        hits.addAll(all.resultAt(2));
        JsonArray items = new JsonArray();
        hits.forEach(items::add);
        JsonObject checked = new JsonObject();
        c.values.forEach((k, v) -> checked.put(k, v.size()));
        items.add(new JsonObject().put("type", "summary").put("hits", hits.size()).put("checked", checked)
            .put("sellerId", q.sellerId()).put("minSimilarity", q.minSimilarity()));
        return new JsonObject().put("checked", checked).put("items", items);
      });
    });
  }

  private Future<List<JsonObject>> exact(Checked c) {
    Map<String, String[]> keys = new LinkedHashMap<>(); // match key -> {identifier kind, value as shown}
    c.of("email").forEach(v -> keys.put(WatchlistKeys.key("email", WatchlistKeys.email(v)), new String[] {"email", v}));
    c.of("phone").forEach(v -> keys.put(WatchlistKeys.key("phone", WatchlistKeys.phone(v)), new String[] {"phone", v}));
    c.of("ip").forEach(v -> keys.put(WatchlistKeys.key("ip", WatchlistKeys.ip(v)), new String[] {"ip", v}));
    c.of("domain").forEach(v -> keys.put(WatchlistKeys.key("domain", WatchlistKeys.domain(v)), new String[] {"domain", v}));
    c.of("bank_account").forEach(v -> keys.put(WatchlistKeys.key("bank_account", v), new String[] {"bank_account", v}));
    c.of("name").forEach(v -> keys.put(WatchlistKeys.key("name", WatchlistKeys.name(v)), new String[] {"name", v}));
    return store.watchlistByKeys(keys.keySet()).map(entries -> {
      List<JsonObject> hits = new ArrayList<>();
      for (JsonObject e : entries) {
        String key = WatchlistKeys.key(e.getString("type"), e.containsKey("valueFp") ? e.getString("valueFp")
            : normal(e.getString("type"), e.getString("value")));
        String[] what = keys.get(key);
        if (what != null) {
          hits.add(hit(e, "exact", what[0], what[1]).put("similarity", 1.0));
        }
      }
      return hits;
    });
  }

  private static String normal(String type, String value) {
    return WatchlistKeys.ofEntry(type, value, null).substring(type.length() + 1);
  }

  private Future<List<JsonObject>> ranges(Checked c) {
    if (c.of("ip").isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    return store.watchlistOfType(WatchlistKeys.IP_RANGE, MAX_RANGES).map(entries -> {
      List<JsonObject> hits = new ArrayList<>();
      for (JsonObject e : entries) {
        IPAddress range = new IPAddressString(e.getString("value")).getAddress();
        for (String ip : c.of("ip")) {
          IPAddress addr = new IPAddressString(ip).getAddress();
          if (range != null && addr != null && range.toPrefixBlock().contains(addr)) {
            hits.add(hit(e, "range", "ip", ip));
          }
        }
      }
      return hits;
    });
  }

  private Future<List<JsonObject>> fuzzy(Checked c, double minSimilarity) {
    List<Future<List<JsonObject>>> all = new ArrayList<>();
    for (String name : c.of("name")) {
      String normal = WatchlistKeys.name(name);
      all.add(store.watchlistNames(normal, NAME_CANDIDATES).compose(candidates -> {
        List<String> ids = new ArrayList<>();
        Map<String, Double> scores = new LinkedHashMap<>();
        for (RecordStore.NameCandidate cand : candidates) {
          double sim = Trigrams.similarity(normal, cand.name());
          if (sim >= minSimilarity && !cand.name().equals(normal)) { // equal names are exact hits
            ids.add(cand.recordId());
            scores.put(cand.recordId(), TransactionStats.round(sim));
          }
        }
        return Future.all(ids.stream().map(store::get).toList()).map(found -> {
          List<JsonObject> hits = new ArrayList<>();
          for (int i = 0; i < ids.size(); i++) {
            found.<java.util.Optional<JsonObject>>resultAt(i).ifPresent(e -> hits.add(hit(e, "fuzzy", "name", name)
                .put("similarity", scores.get(e.getString("id")))));
          }
          return hits;
        });
      }));
    }
    return Future.all(all).map(f -> {
      List<JsonObject> hits = new ArrayList<>();
      for (int i = 0; i < all.size(); i++) {
        hits.addAll(f.resultAt(i));
      }
      hits.sort(Comparator.comparingDouble((JsonObject h) -> h.getDouble("similarity")).reversed()
          .thenComparing(h -> h.getString("entryId")));
      return hits;
    });
  }

  private static JsonObject hit(JsonObject entry, String match, String identifier, String value) {
    boolean account = "bank_account".equals(identifier);
    return new JsonObject().put("type", "watchlist_hit").put("match", match).put("entryId", entry.getString("id"))
        .put("entryType", entry.getString("type")).put("entryValue", account ? null : entry.getString("value"))
        .put("reason", entry.getString("reason")).put("identifier", identifier)
        .put("value", account ? "fingerprint " + value : value)
        .put("record", entry.getString("id"));
  }
}
