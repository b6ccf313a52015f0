package dev.argus.eval;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EvalReportTest {

  @Test
  void modesParseInOrderWithoutDuplicates() {
    assertEquals(List.of(EvalMode.HYBRID, EvalMode.VECTOR), EvalMode.parseList(" hybrid, VECTOR ,hybrid"));
    assertEquals(List.of(EvalMode.HYBRID_DEFAULT), EvalMode.parseList("hybrid-default"));
    assertEquals("hybrid-default", EvalMode.HYBRID_DEFAULT.label());
    assertEquals(null, EvalMode.HYBRID_DEFAULT.retrievers(), "the service's default retrievers");
    assertEquals(List.of("vector", "keyword", "trigram"), EvalMode.HYBRID.retrievers());
    assertEquals(List.of("trigram"), EvalMode.TRIGRAM.retrievers());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EvalMode.parseList("vector,bm25"));
    assertTrue(e.getMessage().contains("bm25"));
    assertThrows(IllegalArgumentException.class, () -> EvalMode.parseList(" , "));
  }

  @Test
  void jsonHasTheContractKeysRounded() {
    ModeResult hybrid = new ModeResult("hybrid", 10, 0.734567, 0.91, 0.70004, 12.345, 30.0, 5, 0);
    JsonObject json = EvalReport.of(List.of(hybrid)).json();
    JsonArray modes = json.getJsonArray("modes");
    assertEquals(1, modes.size());
    JsonObject m = modes.getJsonObject(0);
    assertEquals("hybrid", m.getString("mode"));
    // rounded to 4 decimals: 0.734567 -> 0.7346, 0.70004 -> 0.7, 12.345 -> 12.345
    assertEquals(0.7346, m.getDouble("ndcg@10"));
    assertEquals(0.91, m.getDouble("recall@100"));
    assertEquals(0.7, m.getDouble("mrr"));
    assertEquals(12.345, m.getDouble("p50Ms"));
    assertEquals(30.0, m.getDouble("p95Ms"));
  }

  @Test
  void oneTableRowPerMode() {
    String table = EvalReport.of(List.of(
        new ModeResult("vector", 10, 0.7, 0.9, 0.65, 6.0, 9.5, 300, 0),
        new ModeResult("hybrid", 10, 0.75, 0.95, 0.7, 14.25, 22.0, 300, 0))).table();
    String[] lines = table.split("\n");
    assertEquals(4, lines.length, table);
    assertTrue(lines[0].startsWith("mode") && lines[0].contains("nDCG@10") && lines[0].contains("recall@100")
        && lines[0].contains("MRR") && lines[0].contains("p50 ms") && lines[0].contains("p95 ms"), lines[0]);
    assertTrue(lines[3].matches("hybrid\\s+0\\.7500\\s+0\\.9500\\s+0\\.7000\\s+14\\.3\\s+22\\.0\\s+300"), lines[3]);
  }

  @Test
  void theFirstModeIsComparedWithEachOtherModeQueryByQuery() {
    ModeResult first = new ModeResult("hybrid-default", 10, 0.475, 0.9, 0.6, 8.0, 12.0, 4, 0,
        List.of(0.75, 0.5, 0.375, 0.25));
    ModeResult second = new ModeResult("hybrid", 10, 0.3125, 0.9, 0.6, 9.0, 14.0, 4, 0,
        List.of(0.25, 0.25, 0.5, 0.25));
    ModeResult third = new ModeResult("vector", 10, 0.475, 0.9, 0.6, 7.0, 11.0, 4, 0,
        List.of(0.75, 0.5, 0.375, 0.25));
    String table = EvalReport.of(List.of(first, second, third)).table();
    assertTrue(table.contains("hybrid-default vs hybrid: mean nDCG@10 difference +0.1563 (wins 2, losses 1, ties 1),"
        + " paired randomization p = 0.500"), table);
    assertTrue(table.contains("hybrid-default vs vector: mean nDCG@10 difference +0.0000 (wins 0, losses 0, ties 4),"
        + " paired randomization p = 1.000"), table);
    JsonArray comparisons = EvalReport.of(List.of(first, second, third)).json().getJsonArray("comparisons");
    assertEquals(2, comparisons.size());
    assertEquals("hybrid", comparisons.getJsonObject(0).getString("b"));
    assertEquals(0.5, comparisons.getJsonObject(0).getDouble("p"));
    // results without per-query scores (or a single mode) compare nothing
    assertEquals(0, EvalReport.of(List.of(first)).json().getJsonArray("comparisons").size());
    assertTrue(EvalReport.comparisons(List.of(first, new ModeResult("x", 10, 0.5, 0.5, 0.5, 1, 1, 4, 0))).isEmpty());
  }

  @Test
  void rankedDocumentIdsKeepFirstChunkPosition() {
    JsonObject reply = new JsonObject().put("results", new JsonArray()
        .add(new JsonObject().put("documentId", "b").put("chunkIndex", 2))
        .add(new JsonObject().put("documentId", "a").put("chunkIndex", 0))
        .add(new JsonObject().put("documentId", "b").put("chunkIndex", 0))
        .add(new JsonObject().put("documentId", "c").put("chunkIndex", 1)));
    assertEquals(List.of("b", "a", "c"), EvalRunner.rankedDocumentIds(reply));
    assertEquals(List.of(), EvalRunner.rankedDocumentIds(new JsonObject()));
  }
}
