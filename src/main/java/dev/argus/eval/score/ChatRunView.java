package dev.argus.eval.score;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the scores need of a finished chat run, read from the run record ({@code argus.agent.run.get}'s reply): the
 * question (the standalone rewrite when Think made one), the answer with its {@code [cite:doc:chunk]} markers, the
 * answer's kind ({@code answer}, {@code no_answer}, {@code smalltalk}) and the retrieved context in retrieval order.
 * Retrieved text is data: it is only tokenized, never interpreted.
 */
public record ChatRunView(String runId, String profile, String question, String answer, String kind,
                          List<ContextChunk> context) {

  /** One retrieved chunk, keyed {@code documentId:chunkIndex} like a citation. */
  public record ContextChunk(String key, String text) {
  }

  /** One answer sentence without its markers, with the citation keys it carries. */
  public record Sentence(String text, List<String> citations) {
  }

  static final Pattern MARKER = Pattern.compile("\\[cite:([^\\]\\s]+):(\\d+)\\]");
  private static final Pattern BOUNDARY = Pattern.compile("(?<=[.!?])\\s+|(?<=\\])\\s+(?!\\[cite:)");

  public ChatRunView {
    context = List.copyOf(context);
    answer = answer == null ? "" : answer;
    question = question == null ? "" : question;
    kind = kind == null ? "answer" : kind;
  }

  public boolean refused() {
    return "no_answer".equals(kind);
  }

  /** The answer cut into sentences, each with its citation markers (markers after a stop belong to that sentence). */
  public List<Sentence> sentences() {
    List<Sentence> out = new ArrayList<>();
    for (String raw : BOUNDARY.split(answer.trim())) {
      if (raw.isBlank()) {
        continue;
      }
      List<String> cites = new ArrayList<>();
      Matcher m = MARKER.matcher(raw);
      while (m.find()) {
        cites.add(m.group(1) + ":" + m.group(2));
      }
      String text = MARKER.matcher(raw).replaceAll("").trim();
      if (text.isEmpty() && !out.isEmpty()) {
        // markers alone after the stop: they cite the sentence before
        Sentence prev = out.remove(out.size() - 1);
        List<String> merged = new ArrayList<>(prev.citations());
        merged.addAll(cites);
        out.add(new Sentence(prev.text(), merged));
      } else if (!text.isEmpty()) {
        out.add(new Sentence(text, cites));
      }
    }
    return out;
  }

  /** Reads a run record; the context comes from its successful knowledge tool calls, first occurrence of a chunk kept. */
  public static ChatRunView fromRun(JsonObject run) {
    JsonObject result = run.getJsonObject("result", new JsonObject());
    JsonObject input = run.getJsonObject("input", new JsonObject());
    String standalone = run.getJsonObject("phases", new JsonObject()).getJsonObject("think", new JsonObject())
        .getJsonObject("output", new JsonObject()).getString("standalone");
    String question = standalone != null && !standalone.isBlank() ? standalone : input.getString("question", "");
    List<ContextChunk> context = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    JsonArray evidence = run.getJsonArray("evidence", new JsonArray());
    for (Object o : evidence) {
      if (!(o instanceof JsonObject item) || !item.getBoolean("success", false)
          || !(item.getValue("data") instanceof JsonObject data)) {
        continue;
      }
      String tool = item.getString("tool", "");
      if ("knowledge_search".equals(tool)) {
        for (Object h : data.getJsonArray("results", new JsonArray())) {
          if (h instanceof JsonObject hit) {
            add(context, seen, hit.getString("documentId"), hit.getValue("chunkIndex"), hit.getString("text"));
            for (Object n : hit.getJsonArray("neighbours", new JsonArray())) {
              if (n instanceof JsonObject c) {
                add(context, seen, c.getString("documentId", hit.getString("documentId")),
                    c.getValue("index", c.getValue("chunkIndex")), c.getString("text"));
              }
            }
          }
        }
      } else if ("get_document".equals(tool) || "get_chunk_neighbours".equals(tool)) {
        String doc = data.getString("id", data.getString("documentId",
            item.getJsonObject("params", new JsonObject()).getString("documentId")));
        for (Object n : data.getJsonArray("chunks", new JsonArray())) {
          if (n instanceof JsonObject c) {
            add(context, seen, doc, c.getValue("index", c.getValue("chunkIndex")), c.getString("text"));
          }
        }
      }
    }
    return new ChatRunView(run.getString("runId"), run.getString("profile", "assistant"), question,
        result.getString("answer", ""), result.getString("kind", "answer"), context);
  }

  private static void add(List<ContextChunk> out, Set<String> seen, String doc, Object index, String text) {
    if (doc == null || !(index instanceof Number n) || text == null) {
      return;
    }
    String key = doc + ":" + n.intValue();
    if (seen.add(key)) {
      out.add(new ContextChunk(key, text));
    }
  }
}
