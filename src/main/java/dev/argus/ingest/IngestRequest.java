package dev.argus.ingest;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Body of {@link dev.argus.bus.Addresses#INGEST_SUBMIT}: validated documents, the inputs already rejected while
 * reading the request (bad JSONL lines, bad files of a multi-file upload: failed outcomes the job reports first),
 * whether stored documents may be replaced ({@link ReplaceMode}), and whether the reply waits for the finished job
 * ({@code wait}) or comes at once with the queued job.
 */
public record IngestRequest(List<SourceDocument> documents, List<DocumentOutcome> rejected, ReplaceMode replace,
                            boolean waitForCompletion) {

  public IngestRequest(List<SourceDocument> documents, boolean waitForCompletion) {
    this(documents, List.of(), ReplaceMode.AUTO, waitForCompletion);
  }

  public JsonObject toJson() {
    JsonArray docs = new JsonArray();
    documents.forEach(d -> docs.add(d.toJson()));
    JsonArray bad = new JsonArray();
    rejected.forEach(o -> bad.add(o.toJson()));
    return new JsonObject().put("documents", docs).put("rejected", bad).put("replace", replace.wireName())
        .put("wait", waitForCompletion);
  }

  public static IngestRequest fromJson(JsonObject json) {
    List<SourceDocument> docs = new ArrayList<>();
    JsonArray array = json.getJsonArray("documents", new JsonArray());
    for (int i = 0; i < array.size(); i++) {
      docs.add(SourceDocument.fromJson(array.getJsonObject(i)));
    }
    List<DocumentOutcome> rejected = new ArrayList<>();
    JsonArray bad = json.getJsonArray("rejected", new JsonArray());
    for (int i = 0; i < bad.size(); i++) {
      rejected.add(DocumentOutcome.fromJson(bad.getJsonObject(i)));
    }
    return new IngestRequest(docs, rejected, ReplaceMode.fromWire(json.getString("replace")),
        json.getBoolean("wait", false));
  }
}
