package dev.argus.ingest;

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
 * One ingestion job's state: counts, per-document outcomes and the sequence number of its last event. Mutated
 * only on the owning verticle's context. JSON: {@code {jobId, status, total, processed, created, replaced,
 * unchanged, failed, documents: [...], createdAt, startedAt, finishedAt, lastEventId}}.
 */
public final class IngestJob {

  public enum Status {
    QUEUED, RUNNING, COMPLETED, FAILED,
    /** Found unfinished at start: the process that ran it stopped first (see {@link JobStore#markInterrupted}). */
    INTERRUPTED;

    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    public boolean finished() {
      return this != QUEUED && this != RUNNING;
    }
  }

  private final String id;
  private final int total;
  private final Instant createdAt;
  private final Promise<JsonObject> completion = Promise.promise();
  private final List<DocumentOutcome> documents = new ArrayList<>();
  private Status status = Status.QUEUED;
  private int created;
  private int replaced;
  private int unchanged;
  private int failed;
  private Instant startedAt;
  private Instant finishedAt;
  private long seq;
  /** How many times a restart resumed this job (0 for a job that ran in one process). */
  private int resumed;

  IngestJob(int total) {
    this(UUID.randomUUID().toString(), total, Instant.now());
  }

  private IngestJob(String id, int total, Instant createdAt) {
    this.id = id;
    this.total = total;
    this.createdAt = createdAt;
  }

  /**
   * The job a previous process left unfinished, rebuilt from its last record ({@link #toJson} with documents) to be
   * resumed: same id, counts and outcomes, events numbered on from its last recorded one, {@code resumed} + 1.
   */
  static IngestJob resume(JsonObject record) {
    IngestJob job = new IngestJob(record.getString("jobId"), record.getInteger("total", 0),
        instant(record.getString("createdAt"), Instant.now()));
    JsonArray docs = record.getJsonArray("documents", new JsonArray());
    for (int i = 0; i < docs.size(); i++) {
      job.record(DocumentOutcome.fromJson(docs.getJsonObject(i)));
    }
    job.startedAt = instant(record.getString("startedAt"), null);
    job.seq = record.getLong("lastEventId", 0L);
    job.resumed = record.getInteger("resumed", 0) + 1;
    return job;
  }

  private static Instant instant(String s, Instant fallback) {
    try {
      return s == null ? fallback : Instant.parse(s);
    } catch (RuntimeException e) {
      return fallback;
    }
  }

  public String id() {
    return id;
  }

  public Status status() {
    return status;
  }

  public int total() {
    return total;
  }

  public int processed() {
    return documents.size();
  }

  int resumed() {
    return resumed;
  }

  public int failedCount() {
    return failed;
  }

  Instant finishedAt() {
    return finishedAt;
  }

  Instant createdAt() {
    return createdAt;
  }

  /** Completes with the final job JSON when the job finishes. */
  public Future<JsonObject> completion() {
    return completion.future();
  }

  long nextSeq() {
    return ++seq;
  }

  void start() {
    status = Status.RUNNING;
    if (startedAt == null) {
      startedAt = Instant.now();
    }
  }

  void record(DocumentOutcome outcome) {
    documents.add(outcome);
    switch (outcome.outcome()) {
      case CREATED -> created++;
      case REPLACED -> replaced++;
      case UNCHANGED -> unchanged++;
      case FAILED -> failed++;
    }
  }

  /** Finishes the job: failed when it was cut short or every document failed, completed otherwise. */
  void finish(boolean cutShort) {
    if (startedAt == null) {
      startedAt = Instant.now();
    }
    finishedAt = Instant.now();
    status = cutShort || (total > 0 && failed == total) ? Status.FAILED : Status.COMPLETED;
  }

  void complete() {
    completion.tryComplete(toJson(true));
  }

  public JsonObject toJson(boolean withDocuments) {
    JsonObject json = new JsonObject().put("jobId", id).put("status", status.wireName()).put("total", total)
        .put("processed", documents.size()).put("created", created).put("replaced", replaced)
        .put("unchanged", unchanged).put("failed", failed);
    if (resumed > 0) {
      json.put("resumed", resumed);
    }
    if (withDocuments) {
      JsonArray docs = new JsonArray();
      documents.forEach(d -> docs.add(d.toJson()));
      json.put("documents", docs);
    }
    return json.put("createdAt", createdAt.toString())
        .put("startedAt", startedAt == null ? null : startedAt.toString())
        .put("finishedAt", finishedAt == null ? null : finishedAt.toString())
        .put("lastEventId", seq);
  }
}
