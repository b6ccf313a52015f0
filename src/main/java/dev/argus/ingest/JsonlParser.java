package dev.argus.ingest;

import dev.argus.common.ApiException;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * A JSONL batch: one document {@code {id?, title, text, source?, namespace?, metadata?, format?}} per line; blank
 * lines are skipped. A bad line does not spoil the batch: it is reported (as a failed outcome naming its line) and
 * the good lines are ingested. A batch without a single good line is a 400 naming its first bad line; a batch over
 * the document limit is a 413.
 */
public final class JsonlParser {

  private JsonlParser() {
  }

  /** The good lines' documents, and one failed outcome per bad line (labelled {@code <origin> line <n>}). */
  public record Batch(List<SourceDocument> documents, List<DocumentOutcome> rejected) {
  }

  /**
   * @param origin     the batch's name for messages (a file name, or "body")
   * @param maxDocs    the most documents one batch may hold
   * @param maxChars   the longest text one document may have
   */
  public static Batch parse(String content, String origin, String defaultNamespace, int maxDocs, int maxChars) {
    List<SourceDocument> docs = new ArrayList<>();
    List<DocumentOutcome> rejected = new ArrayList<>();
    ApiException first = null;
    String[] lines = content.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty()) {
        continue;
      }
      String where = origin + " line " + (i + 1);
      if (docs.size() + rejected.size() >= maxDocs) {
        throw ApiException.tooLarge(origin + " holds more than " + maxDocs + " documents");
      }
      try {
        docs.add(SourceDocument.fromApi(object(line, where), defaultNamespace, where, maxChars));
      } catch (ApiException e) {
        first = first == null ? e : first;
        rejected.add(new DocumentOutcome(where, DocumentOutcome.Outcome.FAILED, 0, e.getMessage()));
      }
    }
    if (docs.isEmpty()) {
      throw first != null ? first : ApiException.badRequest("empty_batch", origin + " holds no documents");
    }
    return new Batch(docs, rejected);
  }

  private static JsonObject object(String line, String where) {
    try {
      Object parsed = io.vertx.core.json.Json.decodeValue(line);
      if (!(parsed instanceof JsonObject obj)) {
        throw ApiException.badRequest("invalid_jsonl", where + ": expected a JSON object");
      }
      return obj;
    } catch (DecodeException e) {
      throw ApiException.badRequest("invalid_jsonl", where + ": not valid JSON");
    }
  }
}
