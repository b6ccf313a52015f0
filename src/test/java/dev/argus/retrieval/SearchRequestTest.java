package dev.argus.retrieval;

import dev.argus.common.ApiException;
import dev.argus.config.ArgusConfig;
import dev.argus.config.ConfigLoader;
import dev.argus.config.RetrievalConf;
import dev.argus.knowledge.MetadataCondition;
import dev.argus.knowledge.MetadataCondition.Op;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SearchRequestTest {

  private static final RetrievalConf CONF =
      ArgusConfig.from(ConfigLoader.load(ArgusConfig.DEFAULT_FILE, Map.of())).retrieval();

  private static SearchRequest parse(String json) {
    return SearchRequest.fromJson(new JsonObject(json), CONF, 50);
  }

  private static ApiException rejects(String json) {
    return assertThrows(ApiException.class, () -> parse(json));
  }

  @Test
  void defaults() {
    SearchRequest r = parse("{\"query\": \"account takeover\"}");
    assertEquals("account takeover", r.query());
    assertEquals(CONF.defaultTopK(), r.topK());
    assertEquals(List.of(Retriever.VECTOR, Retriever.KEYWORD, Retriever.TRIGRAM), r.retrievers());
    assertEquals(FusionMode.WEIGHTED, r.fusion(), "the shipped default");
    assertEquals(Expansion.NONE, r.expand());
    assertFalse(r.mmr());
    assertTrue(r.selfQuery());
    assertEquals(List.of(), r.conditions());
  }

  @Test
  void everyOption() {
    SearchRequest r = parse("""
        {"query": "q", "topK": 5, "namespace": "cases", "retrievers": ["trigram", "keyword", "trigram"],
         "fusion": "weighted", "expand": "neighbours", "mmr": true, "selfQuery": false,
         "filters": {"category": "policy", "tags": ["a", "b"], "year": {"gte": 2020, "lt": 2024},
                     "date": {"gte": "2024-01-01"}, "risk": {"eq": 3}}}""");
    assertEquals(5, r.topK());
    assertEquals("cases", r.namespace());
    assertEquals(List.of(Retriever.KEYWORD, Retriever.TRIGRAM), r.retrievers(), "deduplicated, in canonical order");
    assertEquals(FusionMode.WEIGHTED, r.fusion());
    assertEquals(Expansion.NEIGHBOURS, r.expand());
    assertTrue(r.mmr());
    assertFalse(r.selfQuery());
    assertEquals(List.of(
        new MetadataCondition("category", Op.EQ, List.of("policy")),
        new MetadataCondition("tags", Op.IN, List.of("a", "b")),
        new MetadataCondition("year", Op.GTE, List.of(2020)),
        new MetadataCondition("year", Op.LT, List.of(2024)),
        new MetadataCondition("date", Op.GTE, List.of("2024-01-01")),
        new MetadataCondition("risk", Op.EQ, List.of(3))), r.conditions());
  }

  @Test
  void canonicalJsonRoundTrips() {
    SearchRequest r = parse("""
        {"query": "q", "topK": 5, "namespace": "cases", "retrievers": ["vector"], "expand": "parent",
         "filters": {"category": "policy", "tags": {"in": ["a"]}, "year": {"gte": 2020, "lt": 2024}}}""");
    assertEquals(r, SearchRequest.fromJson(r.toJson(), CONF, 50));
    assertEquals(r, SearchRequest.fromJson(new JsonObject(r.toJson().encode()), CONF, 50));
  }

  @Test
  void namespaceInsideFiltersIsTheNamespace() {
    assertEquals("cases", parse("{\"query\": \"q\", \"filters\": {\"namespace\": \"cases\"}}").namespace());
    assertEquals("invalid_filter",
        rejects("{\"query\": \"q\", \"namespace\": \"a\", \"filters\": {\"namespace\": \"b\"}}").code());
  }

  @Test
  void queryIsRequiredNonBlankAndBounded() {
    assertEquals("missing_field", rejects("{}").code());
    assertEquals("invalid_field", rejects("{\"query\": 5}").code());
    assertEquals("empty_field", rejects("{\"query\": \"   \"}").code());
    ApiException tooLong = rejects("{\"query\": \"" + "x".repeat(51) + "\"}");
    assertEquals("field_too_long", tooLong.code());
    assertEquals(400, tooLong.status());
  }

  @Test
  void optionsAreValidated() {
    assertEquals("invalid_field", rejects("{\"query\": \"q\", \"topK\": 0}").code());
    assertEquals("invalid_field", rejects("{\"query\": \"q\", \"topK\": " + (CONF.maxTopK() + 1) + "}").code());
    assertEquals("invalid_field", rejects("{\"query\": \"q\", \"topK\": 2.5}").code());
    assertEquals("invalid_field", rejects("{\"query\": \"q\", \"retrievers\": []}").code());
    assertTrue(rejects("{\"query\": \"q\", \"retrievers\": [\"vector\", \"bm25\"]}").getMessage().contains("bm25"));
    assertEquals("invalid_field", rejects("{\"query\": \"q\", \"retrievers\": \"vector\"}").code());
    assertEquals("invalid_field", rejects("{\"query\": \"q\", \"fusion\": \"max\"}").code());
    assertEquals("invalid_field", rejects("{\"query\": \"q\", \"expand\": \"children\"}").code());
    assertEquals("invalid_field", rejects("{\"query\": \"q\", \"mmr\": \"yes\"}").code());
    assertEquals("invalid_field", rejects("{\"query\": \"q\", \"namespace\": \"\"}").code());
    assertEquals("invalid_field", rejects("{\"query\": \"q\", \"filters\": [1]}").code());
  }

  @Test
  void filtersAreValidatedWithClearMessages() {
    ApiException op = rejects("{\"query\": \"q\", \"filters\": {\"year\": {\"between\": [1, 2]}}}");
    assertEquals("invalid_filter", op.code());
    assertTrue(op.getMessage().contains("unknown operator 'between'") && op.getMessage().contains("'year'"),
        op.getMessage());
    ApiException date = rejects("{\"query\": \"q\", \"filters\": {\"date\": {\"gte\": \"last week\"}}}");
    assertTrue(date.getMessage().contains("ISO date"), date.getMessage());
    assertEquals("invalid_filter", rejects("{\"query\": \"q\", \"filters\": {\"date\": {\"lt\": \"2023-02-30\"}}}").code());
    assertEquals("invalid_filter", rejects("{\"query\": \"q\", \"filters\": {\"year\": {\"gt\": true}}}").code());
    assertEquals("invalid_filter", rejects("{\"query\": \"q\", \"filters\": {\"a b\": 1}}").code());
    assertEquals("invalid_filter", rejects("{\"query\": \"q\", \"filters\": {\"k\": null}}").code());
    assertEquals("invalid_filter", rejects("{\"query\": \"q\", \"filters\": {\"k\": []}}").code());
    assertEquals("invalid_filter", rejects("{\"query\": \"q\", \"filters\": {\"k\": {}}}").code());
    assertEquals("invalid_filter", rejects("{\"query\": \"q\", \"filters\": {\"k\": [{\"x\": 1}]}}").code());
    assertEquals("invalid_filter", rejects("{\"query\": \"q\", \"filters\": {\"k\": {\"in\": \"a\"}}}").code());
    assertEquals("invalid_filter", rejects("{\"query\": \"q\", \"filters\": {\"k\": {\"eq\": [1]}}}").code());
  }

  @Test
  void isoDates() {
    assertTrue(Filters.isIsoDate("2024"));
    assertTrue(Filters.isIsoDate("2024-02"));
    assertTrue(Filters.isIsoDate("2024-02-29"));
    assertTrue(Filters.isIsoDate("2024-02-29T10:15:30Z"));
    assertTrue(Filters.isIsoDate("2024-02-29T10:15:30.123+02:00"));
    assertFalse(Filters.isIsoDate("2023-02-29"));
    assertFalse(Filters.isIsoDate("2024-13"));
    assertFalse(Filters.isIsoDate("24-01-01"));
    assertFalse(Filters.isIsoDate("yesterday"));
  }

  @Test
  void conditionJsonShapes() {
    assertEquals(new JsonObject("{\"key\":\"tags\",\"op\":\"in\",\"values\":[\"a\",\"b\"]}"),
        Filters.toJson(new MetadataCondition("tags", Op.IN, List.of("a", "b"))));
    assertEquals(new JsonObject("{\"key\":\"year\",\"op\":\"gte\",\"value\":2020}"),
        Filters.toJson(new MetadataCondition("year", Op.GTE, List.of(2020))));
    MetadataCondition c = new MetadataCondition("date", Op.LT, List.of("2024-01-01"));
    assertEquals(c, Filters.conditionFromJson(Filters.toJson(c)));
  }
}
