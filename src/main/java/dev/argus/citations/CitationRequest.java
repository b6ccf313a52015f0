package dev.argus.citations;

import dev.argus.common.ApiException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Request of {@code argus.graph.citations.validate}:
 * {@code {citations: [{citation, claim?: {from?, to, relation?}}], evidence?: [EvidenceItem json], asOf?}}; with
 * {@code asOf} (a decision's time, e.g. in a backtest) claims are inferred only from graph facts seen by then. The shape is
 * checked here (a 400 names the first wrong field); the citation text itself is parsed later, so that a malformed
 * citation is excluded with its reason rather than failing the whole decision.
 */
public record CitationRequest(List<Item> citations, Map<Integer, Evidence> evidence, String asOf) {

  /** One citation to validate, with the claim it is said to support (or null). */
  public record Item(String citation, Claim claim) {
  }

  public static CitationRequest fromJson(JsonObject body, int maxCitations, int maxEvidence) {
    if (body == null) {
      throw ApiException.badRequest("invalid_request", "body must be a JSON object");
    }
    if (!(body.getValue("citations") instanceof JsonArray list)) {
      throw ApiException.badRequest("invalid_request", "citations must be a list");
    }
    if (list.size() > maxCitations) {
      throw ApiException.badRequest("too_many_citations", "at most " + maxCitations + " citations per request, got "
          + list.size());
    }
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String where = "citations[" + i + "]";
      Object entry = list.getValue(i);
      if (entry instanceof String s) {
        items.add(new Item(s, null));
        continue;
      }
      if (!(entry instanceof JsonObject o) || !(o.getValue("citation") instanceof String text)) {
        throw ApiException.badRequest("invalid_request", where + " must be {citation, claim?} or a string");
      }
      Object claim = o.getValue("claim");
      if (claim != null && !(claim instanceof JsonObject)) {
        throw ApiException.badRequest("invalid_claim", where + ".claim must be an object");
      }
      items.add(new Item(text, claim == null ? null : Claim.fromJson((JsonObject) claim, where + ".claim")));
    }
    Map<Integer, Evidence> evidence = new HashMap<>();
    Object ev = body.getValue("evidence");
    if (ev != null) {
      if (!(ev instanceof JsonArray evList)) {
        throw ApiException.badRequest("invalid_evidence", "evidence must be a list");
      }
      if (evList.size() > maxEvidence) {
        throw ApiException.badRequest("too_much_evidence", "at most " + maxEvidence + " evidence items, got "
            + evList.size());
      }
      for (int i = 0; i < evList.size(); i++) {
        if (!(evList.getValue(i) instanceof JsonObject o)) {
          throw ApiException.badRequest("invalid_evidence", "evidence[" + i + "] must be an object");
        }
        Evidence e = Evidence.fromJson(o, "evidence[" + i + "]");
        if (evidence.put(e.index(), e) != null) {
          throw ApiException.badRequest("invalid_evidence", "evidence[" + i + "]: duplicate index " + e.index());
        }
      }
    }
    Object asOf = body.getValue("asOf");
    if (asOf != null) {
      if (!(asOf instanceof String s) || s.length() > 64) {
        throw ApiException.badRequest("invalid_as_of", "asOf must be an ISO-8601 instant");
      }
      try {
        java.time.Instant.parse(s);
      } catch (java.time.format.DateTimeParseException e) {
        throw ApiException.badRequest("invalid_as_of", "asOf must be an ISO-8601 instant, e.g. 2025-03-01T00:00:00Z");
      }
    }
    return new CitationRequest(List.copyOf(items), Map.copyOf(evidence), (String) asOf);
  }

  /** The wire form, e.g. for a caller building a request. */
  public static JsonObject toJson(List<Item> citations, JsonArray evidence) {
    JsonArray list = new JsonArray();
    for (Item item : citations) {
      JsonObject o = new JsonObject().put("citation", item.citation());
      if (item.claim() != null) {
        o.put("claim", item.claim().toJson());
      }
      list.add(o);
    }
    JsonObject body = new JsonObject().put("citations", list);
    return evidence == null ? body : body.put("evidence", evidence);
  }
}
