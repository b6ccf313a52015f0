package dev.argus.agent.compose;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Evidence items become citable chunks, including neighbour chunks in the DocumentsVerticle's reply shape. */
class EvidenceChunkTest {

  @Test
  void neighbourChunksTakeTheDocumentTheyWereAskedFor() {
    JsonObject search = new JsonObject().put("index", 0).put("tool", "knowledge_search").put("success", true)
        .put("data", new JsonObject().put("results", new JsonArray().add(new JsonObject().put("documentId", "doc-a")
            .put("chunkIndex", 1).put("title", "Doc A").put("text", "The middle chunk.").put("score", 0.9))));
    // CHUNK_NEIGHBOURS answers {chunks: [{index, total, text}]}: no document id in the chunks
    JsonObject neighbours = new JsonObject().put("index", 1).put("tool", "get_chunk_neighbours").put("success", true)
        .put("params", new JsonObject().put("documentId", "doc-a").put("index", 1))
        .put("data", new JsonObject().put("chunks", new JsonArray()
            .add(new JsonObject().put("index", 0).put("total", 3).put("text", "The first chunk."))
            .add(new JsonObject().put("index", 1).put("total", 3).put("text", "The middle chunk."))
            .add(new JsonObject().put("index", 2).put("total", 3).put("text", "The last chunk."))));
    Map<String, EvidenceChunk> chunks = EvidenceChunk.fromEvidence(new JsonArray().add(search).add(neighbours));
    assertEquals(List.of("doc-a:1", "doc-a:0", "doc-a:2"), List.copyOf(chunks.keySet()));
    assertEquals("Doc A", chunks.get("doc-a:0").title());
    assertEquals("The last chunk.", chunks.get("doc-a:2").text());
    assertEquals(1, chunks.get("doc-a:2").evidenceIndex());
  }
}
