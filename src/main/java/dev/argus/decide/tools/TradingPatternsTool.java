package dev.argus.decide.tools;

import dev.argus.agent.tools.Tool;
import dev.argus.bus.Addresses;
import dev.argus.bus.InRun;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code trading_patterns} tool: a seller's transactions of the {@value #WINDOW_DAYS} days up to {@code asOf}
 * (records query over the bus, {@code argus.records.query}, a page of {@value #PAGE} at a time, at most
 * {@value #MAX_PAGES} pages) reduced to the {@link TradingPatterns} signals: round amounts, buyer concentration,
 * amounts just under reporting thresholds, cards from abroad. Only records dated by {@code asOf} are read, so a
 * decision as of a past time sees nothing later.
 */
public final class TradingPatternsTool implements Tool {

  public static final String NAME = "trading_patterns";
  static final int PAGE = 1000;
  static final int MAX_PAGES = 20;
  static final int WINDOW_DAYS = 365;
  static final String ID = "^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$";
  static final String TIME = "^\\\\d{4}-\\\\d{2}-\\\\d{2}T\\\\d{2}:\\\\d{2}(:\\\\d{2}(\\\\.\\\\d{1,9})?)?(Z|[+-]\\\\d{2}:\\\\d{2})$";

  private final Vertx vertx;
  private final long timeoutMs;

  public TradingPatternsTool(Vertx vertx, long timeoutMs) {
    this.vertx = vertx;
    this.timeoutMs = timeoutMs;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "A seller's trading patterns as of a time, over its transactions of the last " + WINDOW_DAYS + " days: "
        + "share of round amounts, share of the top " + TradingPatterns.TOP_BUYERS + " buyers, share of amounts just "
        + "under a reporting threshold, share of cards issued abroad. Too few transactions: unknown.";
  }

  @Override
  public JsonObject schema() {
    return new JsonObject("""
        {"type": "object", "additionalProperties": false, "required": ["sellerId"],
         "properties": {"sellerId": {"type": "string", "pattern": "%s"},
                        "asOf": {"type": "string", "pattern": "%s"}}}
        """.formatted(ID, TIME));
  }

  @Override
  public Future<JsonObject> execute(JsonObject params) {
    String sellerId = params.getString("sellerId");
    String asOf = params.getString("asOf");
    JsonObject query = new JsonObject().put("kinds", new JsonArray().add("transaction")).put("sellerId", sellerId)
        .put("limit", PAGE);
    if (asOf != null) {
      query.put("asOf", asOf).put("from", OffsetDateTime.parse(asOf).minus(Duration.ofDays(WINDOW_DAYS)).toString());
    }
    return page(query, 0, new ArrayList<>()).map(txs -> {
      JsonObject out = TradingPatterns.of(txs);
      return out.put("sellerId", sellerId).put("asOf", asOf).put("windowDays", WINDOW_DAYS)
          .put("truncated", txs.size() >= PAGE * MAX_PAGES);
    });
  }

  private Future<List<JsonObject>> page(JsonObject query, int n, List<JsonObject> acc) {
    return vertx.eventBus().<JsonObject>request(Addresses.RECORDS_QUERY, query.copy().put("offset", n * PAGE),
        InRun.delivery(timeoutMs)).compose(reply -> {
          JsonObject body = reply.body();
          body.getJsonArray("records", new JsonArray()).forEach(o -> acc.add((JsonObject) o));
          return body.getBoolean("hasMore", false) && n + 1 < MAX_PAGES ? page(query, n + 1, acc)
              : Future.succeededFuture(acc);
        });
  }

  @Override
  public JsonObject summarize(JsonObject result) {
    return result.getJsonObject("signals", new JsonObject()).copy();
  }
}
