package dev.argus.knowledge.sqlite;

import dev.argus.knowledge.MetadataCondition;
import dev.argus.knowledge.SearchFilter;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Query terms, their analysis, and the in-memory filter semantics (the index side is covered by the store tests). */
class QueryTermsTest {

  @Test
  void wordTermsAreLettersAndDigitsWithoutStopwordsAndNeverQuerySyntax() {
    assertEquals(List.of("account", "takeover", "near", "not"),
        QueryTerms.wordTerms("\"account\" AND takeover* NEAR(NOT the)"));
    assertEquals(List.of("the", "of"), QueryTerms.wordTerms("the of")); // only stopwords: keep them
    assertTrue(QueryTerms.wordTerms("?! -- ()").isEmpty());
    assertEquals(QueryTerms.MAX_TERMS, QueryTerms.wordTerms("w1 w2 w3 ".repeat(10) + String.join(" ",
        java.util.stream.IntStream.range(0, 200).mapToObj(i -> "t" + i).toList())).size());
  }

  @Test
  void stemsMeetTheIndexedForm() {
    // Porter: "accounts" and "accounting" both stem to "account"; diacritics fold; duplicates collapse.
    assertEquals(List.of("account", "cafe", "relat"), TextAnalysis.stems(List.of("accounts", "accounting", "café",
        "related")));
    assertEquals("eco", TextAnalysis.trigram("ÉCO"));
  }

  @Test
  void trigramsKeepIdentifiers() {
    assertEquals(List.of("slr", "lr-", "r-8", "-88", "882", "821", "213"), QueryTerms.trigrams("(SLR-88213)"));
    assertTrue(QueryTerms.trigrams("ab .").isEmpty());
    assertEquals(QueryTerms.MAX_TRIGRAMS, QueryTerms.trigrams(String.join(" ",
        java.util.stream.IntStream.range(1000, 1200).mapToObj(Integer::toString).toList())).size());
  }

  @Test
  void metadataSemanticsInMemory() {
    JsonObject m = new JsonObject().put("year", 2021).put("yearText", "2021").put("date", "2024-03-15")
        .put("tags", new JsonArray().add("ato").add("mule")).put("flag", true)
        .put("nested", new JsonObject().put("level", 3));
    assertTrue(MetadataFilters.matches(c("year", MetadataCondition.Op.GTE, 2021), m));
    assertTrue(MetadataFilters.matches(c("year", MetadataCondition.Op.EQ, 2021.0), m));
    assertTrue(MetadataFilters.matches(c("yearText", MetadataCondition.Op.GT, 2020), m)); // numeric text counts
    assertFalse(MetadataFilters.matches(c("date", MetadataCondition.Op.GT, 2020), m));   // a date is not a number
    assertTrue(MetadataFilters.matches(c("date", MetadataCondition.Op.LT, "2024-04-01"), m));
    assertTrue(MetadataFilters.matches(c("tags", MetadataCondition.Op.IN, "x", "mule"), m));
    assertFalse(MetadataFilters.matches(c("tags", MetadataCondition.Op.EQ, "refund"), m));
    assertTrue(MetadataFilters.matches(c("flag", MetadataCondition.Op.EQ, true), m));
    assertFalse(MetadataFilters.matches(c("flag", MetadataCondition.Op.GT, false), m));
    assertTrue(MetadataFilters.matches(c("nested.level", MetadataCondition.Op.LTE, 3), m));
    assertFalse(MetadataFilters.matches(c("absent", MetadataCondition.Op.EQ, "x"), m));
    assertFalse(MetadataFilters.matches(new SearchFilter("other", List.of()), "default", m));
  }

  private static MetadataCondition c(String key, MetadataCondition.Op op, Object... values) {
    return new MetadataCondition(key, op, List.of(values));
  }
}
