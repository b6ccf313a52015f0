package dev.argus.agent.compose;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One chunk that a tool returned, as citable evidence: {@code [cite:<documentId>:<chunkIndex>]} points at it.
 * {@code rank} is its position among all evidence chunks (search hits in rank order first, then neighbours);
 * {@code denseScore} the best cosine similarity the dense retriever gave any hit of its document (0 when none).
 * Text in the citation-marker form that a document itself contains is removed: it is never a citation.
 */
public record EvidenceChunk(String documentId, int chunkIndex, String title, String text, double score, int rank,
                            int evidenceIndex, double denseScore) {

  public EvidenceChunk {
    text = text == null ? null : Citations.stripMarkers(text);
  }

  public EvidenceChunk(String documentId, int chunkIndex, String title, String text, double score, int rank,
                       int evidenceIndex) {
    this(documentId, chunkIndex, title, text, score, rank, evidenceIndex, 0);
  }

  /** Why this chunk's source is flagged ({@code instruction} or {@code markup}), or {@code null}. */
  public String flag() {
    if (text == null) {
      return null;
    }
    for (String line : text.split("\\r?\\n")) {
      String reason = InstructionFilter.reason(line);
      if (reason != null) {
        return reason;
      }
    }
    return null;
  }

  public String key() {
    return key(documentId, chunkIndex);
  }

  public static String key(String documentId, int chunkIndex) {
    return documentId + ":" + chunkIndex;
  }

  public String marker() {
    return "[cite:" + documentId + ":" + chunkIndex + "]";
  }

  /** The citable chunks of a run's evidence items, keyed by {@code documentId:chunkIndex}, in rank order. */
  public static Map<String, EvidenceChunk> fromEvidence(JsonArray evidence) {
    Map<String, EvidenceChunk> out = new LinkedHashMap<>();
    Map<String, String> titles = new LinkedHashMap<>();
    Map<String, Double> dense = new LinkedHashMap<>();
    List<Object[]> pending = new ArrayList<>();
    for (int i = 0; i < evidence.size(); i++) {
      JsonObject item = evidence.getJsonObject(i);
      if (!item.getBoolean("success", false) || item.getJsonObject("data") == null) {
        continue;
      }
      int index = item.getInteger("index", i);
      JsonObject data = item.getJsonObject("data");
      switch (item.getString("tool", "")) {
        case "knowledge_search" -> {
          JsonArray results = data.getJsonArray("results", new JsonArray());
          for (int r = 0; r < results.size(); r++) {
            JsonObject hit = results.getJsonObject(r);
            titles.putIfAbsent(hit.getString("documentId"), hit.getString("title"));
            JsonObject vector = hit.getJsonObject("retrievers", new JsonObject()).getJsonObject("vector");
            if (vector != null && hit.getString("documentId") != null) {
              dense.merge(hit.getString("documentId"), vector.getDouble("score", 0.0), Math::max);
            }
            pending.add(new Object[]{hit.getString("documentId"), hit.getInteger("chunkIndex", 0), hit.getString("title"),
                hit.getString("text"), hit.getDouble("score", 0.0), index});
            JsonArray neighbours = hit.getJsonArray("neighbours");
            if (neighbours != null) {
              for (Object n : neighbours) {
                if (n instanceof JsonObject c) {
                  pending.add(chunkRow(c, hit.getString("documentId"), hit.getString("title"), index));
                }
              }
            }
          }
        }
        case "get_chunk_neighbours" -> {
          // the DocumentsVerticle's chunks carry {index, total, text}: the document is the one asked for
          String docId = data.getString("documentId",
              item.getJsonObject("params", new JsonObject()).getString("documentId"));
          for (Object n : data.getJsonArray("chunks", new JsonArray())) {
            if (n instanceof JsonObject c) {
              pending.add(chunkRow(c, docId, titles.get(docId), index));
            }
          }
        }
        case "get_document" -> {
          String docId = data.getString("id");
          titles.putIfAbsent(docId, data.getString("title"));
          for (Object n : data.getJsonArray("chunks", new JsonArray())) {
            if (n instanceof JsonObject c) {
              pending.add(chunkRow(c, docId, data.getString("title"), index));
            }
          }
        }
        default -> {
        }
      }
    }
    int rank = 0;
    for (Object[] p : pending) {
      String docId = (String) p[0];
      int chunkIndex = (Integer) p[1];
      String text = (String) p[3];
      if (docId == null || text == null || out.containsKey(key(docId, chunkIndex))) {
        continue;
      }
      String title = p[2] != null ? (String) p[2] : titles.getOrDefault(docId, docId);
      out.put(key(docId, chunkIndex), new EvidenceChunk(docId, chunkIndex, title == null ? docId : title, text,
          (Double) p[4], rank++, (Integer) p[5], dense.getOrDefault(docId, 0.0)));
    }
    return out;
  }

  private static Object[] chunkRow(JsonObject c, String docId, String title, int evidenceIndex) {
    String id = c.getString("documentId", docId);
    Integer idx = c.getInteger("index", c.getInteger("chunkIndex", 0));
    return new Object[]{id, idx, c.getString("title", title), c.getString("text"), 0.0, evidenceIndex};
  }
}
