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
    JsonObject json = EvalReport.json(List.of(hybrid));
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
    String table = EvalReport.table(List.of(
        new ModeResult("vector", 10, 0.7, 0.9, 0.65, 6.0, 9.5, 300, 0),
        new ModeResult("hybrid", 10, 0.75, 0.95, 0.7, 14.25, 22.0, 300, 0)));
    String[] lines = table.split("\n");
    assertEquals(4, lines.length, table);
    assertTrue(lines[0].startsWith("mode") && lines[0].contains("nDCG@10") && lines[0].contains("recall@100")
        && lines[0].contains("MRR") && lines[0].contains("p50 ms") && lines[0].contains("p95 ms"), lines[0]);
    assertTrue(lines[3].matches("hybrid\\s+0\\.7500\\s+0\\.9500\\s+0\\.7000\\s+14\\.3\\s+22\\.0\\s+300"), lines[3]);
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
