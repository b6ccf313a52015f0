package dev.argus.ingest;

import io.vertx.core.json.JsonObject;

import java.util.Locale;

/** What ingestion did with one document: {@code {id, outcome, chunks, error?}}; the error names the document. */
public record DocumentOutcome(String id, Outcome outcome, int chunks, String error) {

  public enum Outcome {
    CREATED, REPLACED, UNCHANGED, FAILED;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Outcome fromWire(String s) {
      return valueOf(s.toUpperCase(Locale.ROOT));
    }
  }

  public static DocumentOutcome failed(String id, String reason) {
    return new DocumentOutcome(id, Outcome.FAILED, 0, "document '" + id + "': " + reason);
  }

  public boolean isFailure() {
    return outcome == Outcome.FAILED;
  }

  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("id", id).put("outcome", outcome.wireName()).put("chunks", chunks);
    if (error != null) {
      json.put("error", error);
    }
    return json;
  }

  public static DocumentOutcome fromJson(JsonObject json) {
    return new DocumentOutcome(json.getString("id"), Outcome.fromWire(json.getString("outcome")),
        json.getInteger("chunks", 0), json.getString("error"));
  }
}
