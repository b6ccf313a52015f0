package dev.argus.eval;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a BEIR-format dataset: {@code corpus.jsonl} ({@code _id, title, text, metadata}), {@code queries.jsonl}
 * ({@code _id, text}) and a tab-separated {@code qrels.tsv} with the header {@code query-id corpus-id score}.
 * Blocking file I/O: call it from a CLI thread or a worker, never from an event loop. Malformed input fails
 * with an {@link IllegalArgumentException} that names the file and the line.
 */
public final class BeirLoader {

  private BeirLoader() {
  }

  public static BeirDataset load(Path corpus, Path queries, Path qrels) throws IOException {
    return new BeirDataset(readCorpus(corpus), readQueries(queries), readQrels(qrels));
  }

  public static List<BeirDataset.CorpusDoc> readCorpus(Path file) throws IOException {
    List<BeirDataset.CorpusDoc> docs = new ArrayList<>();
    forEachJsonLine(file, (json, line) -> {
      String id = requiredId(json, file, line);
      String text = json.getValue("text") instanceof String s ? s : "";
      String title = json.getValue("title") instanceof String s ? s : "";
      if (text.isBlank() && title.isBlank()) {
        throw new IllegalArgumentException(file + ":" + line + ": document '" + id + "' has neither title nor text");
      }
      JsonObject metadata = json.getValue("metadata") instanceof JsonObject m ? m : new JsonObject();
      docs.add(new BeirDataset.CorpusDoc(id, title, text, metadata));
    });
    return docs;
  }

  public static List<BeirDataset.Query> readQueries(Path file) throws IOException {
    List<BeirDataset.Query> queries = new ArrayList<>();
    forEachJsonLine(file, (json, line) -> {
      String id = requiredId(json, file, line);
      if (!(json.getValue("text") instanceof String text) || text.isBlank()) {
        throw new IllegalArgumentException(file + ":" + line + ": query '" + id + "' has no text");
      }
      queries.add(new BeirDataset.Query(id, text));
    });
    return queries;
  }

  /** {@code queryId -> (corpusId -> grade)}, in file order; a header line starting with {@code query-id} is skipped. */
  public static Map<String, Map<String, Integer>> readQrels(Path file) throws IOException {
    Map<String, Map<String, Integer>> qrels = new LinkedHashMap<>();
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String raw;
      int line = 0;
      while ((raw = in.readLine()) != null) {
        line++;
        if (raw.isBlank() || (line == 1 && raw.trim().toLowerCase().startsWith("query-id"))) {
          continue;
        }
        String[] cols = raw.trim().split("\t");
        if (cols.length != 3) {
          throw new IllegalArgumentException(file + ":" + line + ": expected 3 tab-separated columns "
              + "(query-id, corpus-id, score), got " + cols.length);
        }
        int grade;
        try {
          grade = (int) Math.round(Double.parseDouble(cols[2].trim()));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(file + ":" + line + ": score '" + cols[2] + "' is not a number");
        }
        qrels.computeIfAbsent(cols[0].trim(), q -> new LinkedHashMap<>()).put(cols[1].trim(), grade);
      }
    }
    Map<String, Map<String, Integer>> frozen = new LinkedHashMap<>();
    qrels.forEach((q, m) -> frozen.put(q, Collections.unmodifiableMap(m)));
    return Collections.unmodifiableMap(frozen);
  }

  private interface LineHandler {
    void accept(JsonObject json, int line);
  }

  private static void forEachJsonLine(Path file, LineHandler handler) throws IOException {
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String raw;
      int line = 0;
      while ((raw = in.readLine()) != null) {
        line++;
        if (raw.isBlank()) {
          continue;
        }
        JsonObject json;
        try {
          json = new JsonObject(raw);
        } catch (DecodeException | ClassCastException e) {
          throw new IllegalArgumentException(file + ":" + line + ": not a JSON object");
        }
        handler.accept(json, line);
      }
    }
  }

  private static String requiredId(JsonObject json, Path file, int line) {
    Object id = json.getValue("_id");
    if (id instanceof String s && !s.isBlank()) {
      return s;
    }
    if (id instanceof Number n) {
      return n.toString();
    }
    throw new IllegalArgumentException(file + ":" + line + ": missing '_id'");
  }
}
