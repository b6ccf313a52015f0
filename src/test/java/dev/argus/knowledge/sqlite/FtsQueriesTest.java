package dev.argus.knowledge.sqlite;

import dev.argus.knowledge.MetadataCondition;
import dev.argus.knowledge.SearchFilter;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Query building and the in-memory filter semantics (the SQL side is covered by the store tests). */
class FtsQueriesTest {

  @Test
  void keywordExpressionQuotesEveryTermAndOrJoinsThem() {
    assertEquals("\"account\" OR \"takeover\" OR \"near\" OR \"not\"",
        FtsQueries.keywordMatch("\"account\" AND takeover* NEAR(NOT the)"));
    assertEquals("\"the\" OR \"of\"", FtsQueries.keywordMatch("the of")); // only stopwords: keep them
    assertNull(FtsQueries.keywordMatch("?! -- ()"));
    assertEquals(FtsQueries.MAX_TERMS, FtsQueries.wordTerms("w1 w2 w3 ".repeat(10) + String.join(" ",
        java.util.stream.IntStream.range(0, 200).mapToObj(i -> "t" + i).toList())).size());
  }

  @Test
  void trigramsKeepIdentifiersAndEscapeQuotes() {
    assertEquals(List.of("slr", "lr-", "r-8", "-88", "882", "821", "213"), FtsQueries.trigrams("(SLR-88213)"));
    assertEquals("\"a\"\"b\" OR \"\"\"bc\"", FtsQueries.trigramMatch("a\"bc"));
    assertNull(FtsQueries.trigramMatch("ab ."));
    assertEquals(FtsQueries.MAX_TRIGRAMS, FtsQueries.trigrams(String.join(" ",
        java.util.stream.IntStream.range(1000, 1200).mapToObj(Integer::toString).toList())).size());
    assertEquals(1.0, FtsQueries.trigramShare(FtsQueries.trigrams("J.Doe@x.com"), "", "mail j.doe@x.com here"));
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
    assertEquals("$.\"nested\".\"level\"", MetadataFilters.jsonPath("nested.level"));
  }

  private static MetadataCondition c(String key, MetadataCondition.Op op, Object... values) {
    return new MetadataCondition(key, op, List.of(values));
  }
}
