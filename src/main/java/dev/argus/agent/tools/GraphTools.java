package dev.argus.agent.tools;

import dev.argus.bus.Addresses;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The agent tools over the entity graph ({@code argus.graph.*}), each one request on the bus ({@link BusTool}):
 * {@code graph_connections}, {@code risk_propagation}, {@code find_rings}, {@code community}, {@code investigate},
 * {@code email_risk}, {@code ip_risk}, {@code similar_cases}. The graph capability computes {@code items} and
 * {@code signals}; every item keeps its own {@code cite} ({@code [entity:TYPE:ID]} or {@code [rel:ID]}, resolvable
 * through the API) and gets {@code source: "[source:<tool>:<index>]"}, the citation of the item itself. Every tool
 * takes an optional {@code asOf} and ignores facts first seen later. A signal that cannot be computed comes back
 * {@code status: unknown} with its reason.
 */
public final class GraphTools {

  static final String ENTITY = "^[^\\\\u0000-\\\\u001f]{1,512}$";

  private GraphTools() {
  }

  private static String schema(String required, String properties) {
    return """
        {"type": "object", "additionalProperties": false, "required": [%s],
         "properties": {"asOf": {"type": "string", "pattern": "%s"}%s}}
        """.formatted(required, RecordTools.TIME, properties);
  }

  private static final String ID = ", \"id\": {\"type\": \"string\", \"pattern\": \"" + ENTITY + "\"}";
  private static final String SELLER = ", \"sellerId\": {\"type\": \"string\", \"pattern\": \"" + RecordTools.ID + "\"}";

  static final BusTool.Spec CONNECTIONS = spec("graph_connections",
      "The identifiers (e-mail, phone, device, IP, address, bank account, card, tax id) an entity shares with other "
          + "sellers or buyers, each with who shares it. id: a seller/buyer id (S-1) or an identifier entity "
          + "(email:..., phone:+49..., ip:..., bank:fp_...).",
      schema("\"id\"", ID), Addresses.GRAPH_CONNECTIONS);

  static final BusTool.Spec RISK_PROPAGATION = spec("risk_propagation",
      "Risk reaching an entity from known-bad nodes (fraud cases, risk events, watchlist hits) within 3 hops: "
          + "risk(seed) x product of (edge weight x 0.5) along the best path; the score is max(own, propagated).",
      schema("\"id\"", ID), Addresses.GRAPH_RISK_PROPAGATION);

  static final BusTool.Spec FIND_RINGS = spec("find_rings",
      "Rings around an entity: cycles of at most maxLength edges (default 8) through at least two sellers/buyers "
          + "(shared payout accounts, devices, buyer-seller trading circles), each with a stable ring id.",
      schema("\"id\"", ID + ", \"maxLength\": {\"type\": \"integer\", \"minimum\": 3, \"maximum\": 12}"),
      Addresses.GRAPH_RINGS);

  static final BusTool.Spec COMMUNITY = spec("community",
      "The entity's community (label propagation on its 3-hop neighbourhood) with a stable id, its size and "
          + "aggregate risk, and the most similar subjects by Jaccard similarity of shared identifiers.",
      schema("\"id\"", ID), Addresses.GRAPH_COMMUNITY);

  static final BusTool.Spec INVESTIGATE = spec("investigate",
      "Multi-hop investigation from an entity: at most 3 hops over edges of weight >= minWeight (default 0.7), "
          + "risk signals per hop, and an evidence chain of cited relations to every risky entity reached.",
      schema("\"entity\"", ", \"entity\": {\"type\": \"string\", \"pattern\": \"" + ENTITY + "\"}, "
          + "\"maxHops\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 3}, "
          + "\"minWeight\": {\"type\": \"number\", \"minimum\": 0.7, \"maximum\": 1}"),
      Addresses.GRAPH_INVESTIGATE);

  static final BusTool.Spec EMAIL_RISK = spec("email_risk",
      "E-mail risk: disposable domain (maintained list), free-mail provider, mismatch with the business's own "
          + "domain, other subjects using the address. Domain age is unknown (no data). Give sellerId or email.",
      schema("", SELLER + ", \"email\": {\"type\": \"string\", \"minLength\": 3, \"maxLength\": 254}, "
          + "\"businessDomain\": {\"type\": \"string\", \"minLength\": 3, \"maxLength\": 253}")
          .replace("\"required\": []", "\"anyOf\": [{\"required\": [\"sellerId\"]}, {\"required\": [\"email\"]}]"),
      Addresses.GRAPH_EMAIL_RISK);

  static final BusTool.Spec IP_RISK = spec("ip_risk",
      "IP risk: flagged ranges (configured), shared-IP fan-out (other subjects on the IP, other IPs in its /24), "
          + "country mismatch reported unknown without geolocation data. Give sellerId or ip.",
      schema("", SELLER + ", \"ip\": {\"type\": \"string\", \"minLength\": 2, \"maxLength\": 64}")
          .replace("\"required\": []", "\"anyOf\": [{\"required\": [\"sellerId\"]}, {\"required\": [\"ip\"]}]"),
      Addresses.GRAPH_IP_RISK);

  static final BusTool.Spec SIMILAR_CASES = spec("similar_cases",
      "Cases near a seller in the graph (their subjects share identifiers with it, or a knowledge-base document "
          + "mentions it or its identifiers), closest first, with outcome, overlap and the path.",
      schema("\"sellerId\"", SELLER + ", \"limit\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 20}"),
      Addresses.GRAPH_SIMILAR_CASES);

  private static BusTool.Spec spec(String name, String description, String schema, String address) {
    return new BusTool.Spec(name, description, new JsonObject(schema), address, params -> params,
        (request, reply) -> cite(name, reply), GraphTools::summary);
  }

  /** The graph tools, each request within {@code timeoutMs}. */
  public static List<Tool> all(Vertx vertx, long timeoutMs) {
    return List.of(CONNECTIONS, RISK_PROPAGATION, FIND_RINGS, COMMUNITY, INVESTIGATE, EMAIL_RISK, IP_RISK,
        SIMILAR_CASES).stream().<Tool>map(s -> new BusTool(vertx, s, timeoutMs)).toList();
  }

  /** Every item gets {@code source} (its own citation); an item without a graph citation is cited by its source. */
  static JsonObject cite(String tool, JsonObject result) {
    JsonArray items = result.getJsonArray("items", new JsonArray());
    for (int i = 0; i < items.size(); i++) {
      JsonObject item = items.getJsonObject(i);
      String source = "[source:" + tool + ":" + i + "]";
      item.put("source", source);
      if (item.getString("cite") == null) {
        item.put("cite", source);
      }
    }
    return result;
  }

  static JsonObject summary(JsonObject result) {
    return new JsonObject().put("items", result.getJsonArray("items", new JsonArray()).size())
        .put("signals", result.getJsonObject("signals", new JsonObject()));
  }
}
