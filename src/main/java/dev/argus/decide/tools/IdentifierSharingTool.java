package dev.argus.decide.tools;

import dev.argus.agent.tools.BusTool;
import dev.argus.bus.Addresses;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The {@code identifier_sharing} tool: the identifiers (e-mail, phone, device, IP, address, bank account, tax id) a
 * seller or buyer shares with other subjects as of a time, from the graph's direct two-read query
 * ({@code argus.graph.identifier.sharing}) — what {@code graph_connections} reports from a 2-hop subgraph, at the cost
 * a decision's fast path can pay. Each item keeps its {@code cite} ({@code [rel:ID]}) and gets
 * {@code source: [source:identifier_sharing:<index>]}; the signals include {@code sharedBankAccountSubjects}.
 */
public final class IdentifierSharingTool {

  public static final String NAME = "identifier_sharing";
  /** The same question about a transaction's buyer (a scoring model names it with {@code subject: buyer}). */
  public static final String BUYER_NAME = "buyer_identifier_sharing";

  static final BusTool.Spec SPEC = spec(NAME);

  static BusTool.Spec spec(String name) {
    return new BusTool.Spec(name,
      "The identifiers (e-mail, phone, device, IP, address, bank account, tax id) a seller or buyer shares with other "
          + "sellers or buyers as of a time, each with who shares it; signals: sharedIdentifiers, linkedSubjects, "
          + "strongSharedIdentifiers, sharedBankAccountSubjects.",
      new JsonObject("""
          {"type": "object", "additionalProperties": false, "required": ["id"],
           "properties": {"id": {"type": "string", "pattern": "%s"}, "asOf": {"type": "string", "pattern": "%s"}}}
          """.formatted(TradingPatternsTool.ID, TradingPatternsTool.TIME)),
      Addresses.GRAPH_IDENTIFIER_SHARING, params -> params, (request, reply) -> {
        JsonArray items = reply.getJsonArray("items", new JsonArray());
        for (int i = 0; i < items.size(); i++) {
          items.getJsonObject(i).put("source", "[source:" + name + ":" + i + "]");
        }
        return reply;
      }, result -> result.getJsonObject("signals", new JsonObject()).copy());
  }

  private IdentifierSharingTool() {
  }

  public static BusTool create(Vertx vertx, long timeoutMs) {
    return new BusTool(vertx, SPEC, timeoutMs);
  }

  public static BusTool forBuyers(Vertx vertx, long timeoutMs) {
    return new BusTool(vertx, spec(BUYER_NAME), timeoutMs);
  }
}
