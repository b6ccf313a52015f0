package dev.argus.records;

import dev.argus.common.ApiException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Body of {@link dev.argus.bus.Addresses#RECORDS_WATCHLIST_MATCH}: a seller to check (its names, e-mail and its domain,
 * phone, IPs, website domain, registered and payout bank accounts as of {@code asOf}) and/or explicit identifiers:
 * {@code {sellerId?, asOf?, names?, emails?, phones?, ips?, domains?, bankAccountFps?, minSimilarity?}}. Bank accounts
 * are given as fingerprints only (raw account numbers never travel in tool calls). At most {@link #MAX_VALUES} values
 * per list.
 */
public record WatchlistQuery(String sellerId, Long asOfMs, List<String> names, List<String> emails,
                             List<String> phones, List<String> ips, List<String> domains, List<String> bankAccountFps,
                             double minSimilarity) {

  public static final int MAX_VALUES = 50;
  public static final double DEFAULT_SIMILARITY = 0.45;
  /** PostgreSQL's pg_trgm candidates start at its default threshold: lower thresholds would differ between stores. */
  public static final double MIN_SIMILARITY = 0.3;

  public boolean isEmpty() {
    return sellerId == null && names.isEmpty() && emails.isEmpty() && phones.isEmpty() && ips.isEmpty()
        && domains.isEmpty() && bankAccountFps.isEmpty();
  }

  public JsonObject toJson() {
    return new JsonObject().put("sellerId", sellerId).put("asOf", RecordQuery.iso(asOfMs))
        .put("names", new JsonArray(names)).put("emails", new JsonArray(emails)).put("phones", new JsonArray(phones))
        .put("ips", new JsonArray(ips)).put("domains", new JsonArray(domains))
        .put("bankAccountFps", new JsonArray(bankAccountFps)).put("minSimilarity", minSimilarity);
  }

  public static WatchlistQuery fromJson(JsonObject json) {
    Object sim = json.getValue("minSimilarity");
    double minSimilarity = DEFAULT_SIMILARITY;
    if (sim != null) {
      if (!(sim instanceof Number n) || n.doubleValue() < MIN_SIMILARITY || n.doubleValue() > 1) {
        throw ApiException.badRequest("invalid_field", "field 'minSimilarity' must be a number between "
            + MIN_SIMILARITY + " and 1");
      }
      minSimilarity = n.doubleValue();
    }
    WatchlistQuery q = new WatchlistQuery(RecordQuery.id(json, "sellerId"), RecordQuery.time(json, "asOf"),
        list(json, "names"), list(json, "emails"), list(json, "phones"), list(json, "ips"), list(json, "domains"),
        list(json, "bankAccountFps"), minSimilarity);
    if (q.isEmpty()) {
      throw ApiException.badRequest("missing_field", "give a sellerId or at least one identifier to check");
    }
    return q;
  }

  private static List<String> list(JsonObject json, String field) {
    Object v = json.getValue(field);
    if (v == null) {
      return List.of();
    }
    if (!(v instanceof JsonArray array) || array.size() > MAX_VALUES) {
      throw ApiException.badRequest("invalid_field", "field '" + field + "' must be an array of at most " + MAX_VALUES
          + " strings");
    }
    List<String> out = new ArrayList<>();
    for (Object o : array) {
      if (!(o instanceof String s) || s.isBlank() || s.length() > 256) {
        throw ApiException.badRequest("invalid_field", "field '" + field + "' must hold non-empty strings of at most "
            + "256 characters");
      }
      out.add(s.strip());
    }
    return List.copyOf(out);
  }
}
