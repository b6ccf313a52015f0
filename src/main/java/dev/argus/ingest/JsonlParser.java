package dev.argus.ingest;

import dev.argus.common.ApiException;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * A JSONL batch: one document {@code {id?, title, text, source?, namespace?, metadata?, format?}} per line;
 * blank lines are skipped. The first bad line fails the whole batch with a 400 that names its line number, so
 * nothing of a malformed batch is stored.
 */
public final class JsonlParser {

  private JsonlParser() {
  }

  /**
   * @param origin     the batch's name for messages (a file name, or "body")
   * @param maxDocs    the most documents one batch may hold
   * @param maxChars   the longest text one document may have
   */
  public static List<SourceDocument> parse(String content, String origin, String defaultNamespace, int maxDocs,
                                           int maxChars) {
    List<SourceDocument> docs = new ArrayList<>();
    String[] lines = content.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty()) {
        continue;
      }
      String where = origin + " line " + (i + 1);
      JsonObject json;
      try {
        Object parsed = io.vertx.core.json.Json.decodeValue(line);
        if (!(parsed instanceof JsonObject obj)) {
          throw ApiException.badRequest("invalid_jsonl", where + ": expected a JSON object");
        }
        json = obj;
      } catch (DecodeException e) {
        throw ApiException.badRequest("invalid_jsonl", where + ": not valid JSON");
      }
      if (docs.size() >= maxDocs) {
        throw ApiException.tooLarge(origin + " holds more than " + maxDocs + " documents");
      }
      docs.add(SourceDocument.fromApi(json, defaultNamespace, where, maxChars));
    }
    if (docs.isEmpty()) {
      throw ApiException.badRequest("empty_batch", origin + " holds no documents");
    }
    return docs;
  }
}
