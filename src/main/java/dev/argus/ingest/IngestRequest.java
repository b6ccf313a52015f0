package dev.argus.ingest;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Body of {@link dev.argus.bus.Addresses#INGEST_SUBMIT}: validated documents and whether the reply waits for the
 * finished job ({@code wait}) or comes at once with the queued job.
 */
public record IngestRequest(List<SourceDocument> documents, boolean waitForCompletion) {

  public JsonObject toJson() {
    JsonArray docs = new JsonArray();
    documents.forEach(d -> docs.add(d.toJson()));
    return new JsonObject().put("documents", docs).put("wait", waitForCompletion);
  }

  public static IngestRequest fromJson(JsonObject json) {
    List<SourceDocument> docs = new ArrayList<>();
    JsonArray array = json.getJsonArray("documents", new JsonArray());
    for (int i = 0; i < array.size(); i++) {
      docs.add(SourceDocument.fromJson(array.getJsonObject(i)));
    }
    return new IngestRequest(docs, json.getBoolean("wait", false));
  }
}
