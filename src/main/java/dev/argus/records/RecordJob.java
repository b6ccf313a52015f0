package dev.argus.records;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * One record-loading job: counts over the committed batches, the refused lines (the first {@code maxErrorsKept} with
 * their errors; all are counted), the graph's share, and the sequence number of its last event. Mutated only on the
 * owning verticle's context. JSON: {@code {jobId, status, lines, created, updated, unchanged, failed, batches, graph:
 * {applied, skipped, failed, nodes, edges, errors}, errors: [{line, field, id, reason}], errorsTruncated, error?,
 * startedAt, finishedAt, lastEventId}}.
 */
public final class RecordJob {

  public enum Status {
    QUEUED, RUNNING, COMPLETED, FAILED;

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }

    public boolean finished() {
      return this == COMPLETED || this == FAILED;
    }
  }

  private final String id = UUID.randomUUID().toString();
  private final int maxErrorsKept;
  private final Promise<JsonObject> completion = Promise.promise();
  private final List<LineError> errors = new ArrayList<>();
  private final List<String> graphErrors = new ArrayList<>();
  private Status status = Status.QUEUED;
  private long lines;
  private long created;
  private long updated;
  private long unchanged;
  private long failed;
  private long batches;
  private long graphApplied;
  private long graphSkipped;
  private long graphFailed;
  private long graphNodes;
  private long graphEdges;
  private String error;
  private Instant startedAt;
  private Instant finishedAt;
  private long seq;

  RecordJob(int maxErrorsKept) {
    this.maxErrorsKept = maxErrorsKept;
  }

  public String id() {
    return id;
  }

  public Status status() {
    return status;
  }

  public Future<JsonObject> completion() {
    return completion.future();
  }

  long nextSeq() {
    return ++seq;
  }

  void start() {
    status = Status.RUNNING;
    startedAt = Instant.now();
  }

  void record(BatchResult b) {
    batches++;
    lines = b.lastLine();
    created += b.created();
    updated += b.updated();
    unchanged += b.unchanged();
    failed += b.errors().size();
    for (LineError e : b.errors()) {
      if (errors.size() < maxErrorsKept) {
        errors.add(e);
      }
    }
    switch (b.graph()) {
      case BatchResult.GRAPH_APPLIED -> graphApplied++;
      case BatchResult.GRAPH_SKIPPED -> graphSkipped++;
      default -> {
        graphFailed++;
        if (graphErrors.size() < 10) {
          graphErrors.add("lines " + b.firstLine() + "-" + b.lastLine() + ": " + b.graphError());
        }
      }
    }
    graphNodes += b.graphNodes();
    graphEdges += b.graphEdges();
  }

  /** Ends the job: failed when it was cut short or a batch could not be written ({@code error}), completed otherwise. */
  void finish(String error) {
    if (startedAt == null) {
      startedAt = Instant.now();
    }
    this.error = error;
    finishedAt = Instant.now();
    status = error == null ? Status.COMPLETED : Status.FAILED;
  }

  void complete() {
    completion.tryComplete(toJson(true));
  }

  public JsonObject toJson(boolean withErrors) {
    JsonObject graph = new JsonObject().put("applied", graphApplied).put("skipped", graphSkipped)
        .put("failed", graphFailed).put("nodes", graphNodes).put("edges", graphEdges)
        .put("errors", new JsonArray(new ArrayList<>(graphErrors)));
    JsonObject json = new JsonObject().put("jobId", id).put("status", status.wire()).put("lines", lines)
        .put("created", created).put("updated", updated).put("unchanged", unchanged).put("failed", failed)
        .put("batches", batches).put("graph", graph);
    if (withErrors) {
      JsonArray errs = new JsonArray();
      errors.forEach(e -> errs.add(e.toJson()));
      json.put("errors", errs).put("errorsTruncated", failed > errors.size());
    }
    if (error != null) {
      json.put("error", error);
    }
    return json.put("startedAt", startedAt == null ? null : startedAt.toString())
        .put("finishedAt", finishedAt == null ? null : finishedAt.toString()).put("lastEventId", seq);
  }
}
