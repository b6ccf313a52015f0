package dev.argus.ingest;

import dev.argus.common.ApiException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonlParserTest {

  private static List<SourceDocument> parse(String text) {
    JsonlParser.Batch batch = JsonlParser.parse(text, "batch.jsonl", "default", 100, 10_000);
    assertTrue(batch.rejected().isEmpty(), batch.rejected().toString());
    return batch.documents();
  }

  @Test
  void parsesDocumentsSkippingBlankLines() {
    List<SourceDocument> docs = parse("""
        {"id": "a1", "title": "A", "text": "Alpha.", "metadata": {"year": 2021, "tags": ["x"]}}

        {"title": "B", "text": "Beta.", "namespace": "cases", "source": "s3://b"}
        """);
    assertEquals(2, docs.size());
    assertEquals("a1", docs.get(0).id());
    assertEquals(2021, docs.get(0).metadata().getInteger("year"));
    assertNull(docs.get(1).id());
    assertEquals("cases", docs.get(1).namespace());
    ParsedDocument b = DocumentParsers.parse(docs.get(1), "default", 10_000);
    assertEquals(DocumentRules.idFromTitle("cases", "B"), b.id(), "derived id: hash of namespace and title");
    assertEquals(b.id(), DocumentParsers.parse(docs.get(1), "default", 10_000).id(), "deterministic");
  }

  @Test
  void beirUnderscoreIdIsAccepted() {
    List<SourceDocument> docs = parse("{\"_id\": \"4983\", \"title\": \"T\", \"text\": \"Abstract.\", \"metadata\": {}}");
    assertEquals("4983", docs.get(0).id());
  }

  @Test
  void aBadLineIsReportedWithItsNumberAndTheGoodLinesAreKept() {
    JsonlParser.Batch batch = JsonlParser.parse("{\"title\":\"A\",\"text\":\"ok\"}\n{not json}\n\n[1,2]\n"
        + "{\"title\":\"N\",\"text\":\"nul \\u0000 inside\"}\n{\"title\":\"B\",\"text\":\"fine\"}", "batch.jsonl", "default",
        100, 10_000);
    assertEquals(List.of("A", "B"), batch.documents().stream().map(SourceDocument::title).toList());
    assertEquals(List.of("batch.jsonl line 2", "batch.jsonl line 4", "batch.jsonl line 5"),
        batch.rejected().stream().map(DocumentOutcome::id).toList());
    assertTrue(batch.rejected().get(0).error().startsWith("batch.jsonl line 2: not valid JSON"));
    assertTrue(batch.rejected().get(1).error().startsWith("batch.jsonl line 4: expected a JSON object"));
    assertTrue(batch.rejected().get(2).error().contains("NUL"), batch.rejected().get(2).error());
    assertTrue(batch.rejected().stream().allMatch(DocumentOutcome::isFailure));
  }

  @Test
  void aBatchWithoutAGoodLineFailsWithItsFirstError() {
    assertError("{not json}\n{\"title\":\"A\"}", "batch.jsonl line 1: not valid JSON", "invalid_jsonl");
    assertError("\n[1,2]\n", "batch.jsonl line 2: expected a JSON object", "invalid_jsonl");
    assertError("{\"title\":\"A\"}", "batch.jsonl line 1: field 'text' is required", "missing_field");
    assertError("{\"title\":\"A\",\"text\":42}", "batch.jsonl line 1: field 'text' must be a string", "invalid_field");
    assertError("{\"title\":\"A\",\"text\":\"  \"}", "batch.jsonl line 1: field 'text' must not be empty", "empty_text");
    assertError("{\"title\":\"A\",\"text\":\"t\",\"namespace\":\"No!\"}", "batch.jsonl line 1: invalid namespace",
        "invalid_namespace");
    assertError("{\"title\":\"A\",\"text\":\"t\",\"metadata\":{\"k\":{\"nested\":1}}}",
        "batch.jsonl line 1: metadata 'k' must be a string, number, boolean or list of strings", "invalid_metadata");
    assertError("{\"title\":\"A\",\"text\":\"t\",\"metadata\":{\"tags\":[1]}}",
        "batch.jsonl line 1: metadata 'tags' must be a list of strings", "invalid_metadata");
    assertError("\n\n", "batch.jsonl holds no documents", "empty_batch");
  }

  private static void assertError(String input, String messageStart, String code) {
    ApiException e = assertThrows(ApiException.class, () -> parse(input));
    assertTrue(e.getMessage().startsWith(messageStart), e.getMessage());
    assertEquals(code, e.code());
    assertEquals(400, e.status());
  }
}
