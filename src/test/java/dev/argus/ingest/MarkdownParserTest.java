package dev.argus.ingest;

import dev.argus.common.ApiException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MarkdownParserTest {

  private static final String DOC = """
      ---
      id: policy-onboarding-01
      title: "Seller onboarding policy"
      namespace: policies
      category: policy
      date: 2024-03-15
      year: 2024
      riskScore: 0.75
      active: true
      tags: kyc, onboarding , sellers
      region: EU
      ---
      # Seller onboarding

      New sellers **must** pass [KYC checks](https://example.com/kyc) before their first payout.

      ## Red flags

      - Mismatched *billing* and shipping country
      - Email domain younger than `30 days`

      | Signal | Weight |
      | --- | --- |
      | Proxy IP | 3 |

      ```
      score = velocity * 2
      ```

      <div class="note">Reviewed <b>quarterly</b></div>
      """;

  @Test
  void frontMatterSetsFieldsAndTypedMetadata() {
    ParsedContent parsed = MarkdownParser.parse(DOC);
    assertEquals("Seller onboarding policy", parsed.title());
    assertEquals("policy-onboarding-01", parsed.fields().getString("id"));
    assertEquals("policies", parsed.fields().getString("namespace"));
    JsonObject meta = parsed.metadata();
    assertEquals("policy", meta.getString("category"));
    assertEquals("2024-03-15", meta.getValue("date"), "dates stay ISO strings");
    assertEquals(2024L, meta.getValue("year"));
    assertEquals(0.75, meta.getValue("riskScore"));
    assertEquals(true, meta.getValue("active"));
    assertEquals(new JsonArray().add("kyc").add("onboarding").add("sellers"), meta.getJsonArray("tags"));
    assertEquals("EU", meta.getString("region"));
    assertFalse(meta.containsKey("id"));
    assertFalse(meta.containsKey("title"));
  }

  @Test
  void markupIsStrippedAndHeadingsBecomeSentences() {
    String text = MarkdownParser.parse(DOC).text();
    assertEquals("""
        Seller onboarding.

        New sellers must pass KYC checks before their first payout.

        Red flags.

        Mismatched billing and shipping country

        Email domain younger than 30 days

        Signal; Weight

        Proxy IP; 3

        score = velocity * 2

        Reviewed quarterly""", text);
    assertFalse(text.contains("https://"), "link targets are dropped");
    assertFalse(text.contains("---"));
  }

  @Test
  void wrappedProseJoinsButBoldLabelLinesStaySeparate() {
    String text = MarkdownParser.parse("""
        A sentence wrapped
        over two lines.

        **Opened:** 2025-09-11 from rule V-105
        **Outcome:** contained in 35 minutes
        """).text();
    assertEquals("A sentence wrapped over two lines.\n\nOpened: 2025-09-11 from rule V-105\nOutcome: contained in 35 minutes",
        text);
  }

  @Test
  void titleFallsBackToFirstHeading() {
    ParsedContent parsed = MarkdownParser.parse("Intro line.\n\n## Account takeover!\n\nText.");
    assertEquals("Account takeover!", parsed.title());
    assertEquals("Intro line.\n\nAccount takeover!\n\nText.", parsed.text());
    assertNull(MarkdownParser.parse("no heading at all").title());
  }

  @Test
  void badFrontMatterIsAClearError() {
    ApiException unclosed = assertThrows(ApiException.class, () -> MarkdownParser.parse("---\ntitle: x\ncategory: y\n"));
    assertTrue(unclosed.getMessage().contains("no closing"), unclosed.getMessage());
    ApiException line = assertThrows(ApiException.class, () -> MarkdownParser.parse("---\ntitle: x\njust words\n---\n"));
    assertTrue(line.getMessage().contains("line 3"), line.getMessage());
  }

  @Test
  void documentParsersResolveFieldsFromFrontMatterAndFileName() {
    ParsedDocument doc = DocumentParsers.parse(SourceDocument.ofFile("Onboarding Policy.md", Format.MARKDOWN, DOC,
        "default"), "default", 1_000_000);
    assertEquals("policy-onboarding-01", doc.id());
    assertEquals("policies", doc.namespace(), "front matter namespace wins over the default");
    assertEquals("Onboarding Policy.md", doc.source());

    ParsedDocument plain = DocumentParsers.parse(SourceDocument.ofFile("Case Notes 7.md", Format.MARKDOWN,
        "# Case 7\n\nA mule account.", "cases"), "default", 1_000_000);
    assertEquals("cases:case-notes-7", plain.id(), "id from the file name, qualified outside the default namespace");
    assertEquals("case-notes-7", DocumentParsers.parse(SourceDocument.ofFile("Case Notes 7.md", Format.MARKDOWN,
        "# Case 7\n\nA mule account.", "default"), "default", 1_000_000).id(), "unqualified in the default namespace");
    assertEquals("Case 7", plain.title());
    assertEquals("cases", plain.namespace());
  }

  @Test
  void invalidFrontMatterNamespaceIsRejected() {
    ApiException e = assertThrows(ApiException.class, () -> DocumentParsers.parse(SourceDocument.ofFile("a.md",
        Format.MARKDOWN, "---\nnamespace: Bad Space\n---\ntext", "default"), "default", 1000));
    assertEquals("invalid_namespace", e.code());
  }
}
