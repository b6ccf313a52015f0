package dev.argus.eval;

import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;

/**
 * A retrieval benchmark in the BEIR layout: the corpus, the queries, and the judgments
 * ({@code queryId -> (corpusId -> grade)}). Only queries that have at least one judgment are evaluated.
 */
public record BeirDataset(List<CorpusDoc> corpus, List<Query> queries, Map<String, Map<String, Integer>> qrels) {

  /** One corpus line: {@code {"_id", "title", "text", "metadata"}}. */
  public record CorpusDoc(String id, String title, String text, JsonObject metadata) {
  }

  /** One query line: {@code {"_id", "text"}}. */
  public record Query(String id, String text) {
  }

  /** The queries that have at least one judged document with a positive grade, in file order. */
  public List<Query> judgedQueries() {
    return queries.stream().filter(q -> {
      Map<String, Integer> grades = qrels.get(q.id());
      return grades != null && grades.values().stream().anyMatch(g -> g > 0);
    }).toList();
  }
}
