package dev.argus.agent.filters;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Filters a model proposed, checked against the fields and values the documents carry. */
class FilterCheckTest {

  private static final KnownFields KNOWN = new KnownFields(
      Map.of("category", Set.of("policy", "case"), "region", Set.of("Europe", "global"), "date", Set.of("2025-01-20")),
      Set.of("source"));

  @Test
  void unknownFieldsAreDroppedUnknownValuesRelaxedAndKnownOnesKept() {
    FilterCheck.Result r = FilterCheck.check(new JsonObject()
        .put("category", "Policy")                                   // known value, other case: stored spelling
        .put("colour", "red")                                         // no document has the field: dropped
        .put("region", new JsonArray().add("europe").add("mars"))     // one known, one not: relaxed to the known
        .put("date", new JsonObject().put("gte", "2024-01-01"))       // a range on a known field: kept
        .put("source", "anything")                                    // an open field: kept as is
        .put("risk", new JsonObject().put("eq", "high")), KNOWN);     // unknown field in long form: dropped
    assertEquals(new JsonObject().put("category", "policy").put("region", new JsonArray().add("Europe"))
        .put("date", new JsonObject().put("gte", "2024-01-01")).put("source", "anything"), r.filters());
    assertEquals(3, r.notes().size(), r.notes().toString());
    assertTrue(r.notes().stream().anyMatch(n -> n.contains("'colour'")), r.notes().toString());
    assertTrue(r.notes().stream().anyMatch(n -> n.contains("'mars'")), r.notes().toString());
  }

  @Test
  void aValueNoDocumentHasRemovesTheFilter() {
    FilterCheck.Result r = FilterCheck.check(new JsonObject().put("category", new JsonObject().put("eq", "invoice")),
        KNOWN);
    assertTrue(r.filters().isEmpty(), r.filters().encode());
    assertEquals(1, r.notes().size());
  }
}
