package dev.argus.backtest;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * One backtest: its request (without the world's text), its phase ({@code reading} the world and loading it into the
 * store without labels, {@code deciding}, {@code reporting}), counters, and, once completed, its report. Mutated only
 * on the owning verticle's context. JSON: {@code {backtestId, status, phase, request, world: {lines, transactions,
 * latest}, load: {created, updated, unchanged, refused}, subjects, decided, failed, decisionsPerSecond, error?,
 * startedAt, finishedAt, lastEventId, report?}}.
 */
public final class BacktestJob {

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
  private final long createdAtMs = System.currentTimeMillis();
  private final JsonObject request;
  private final Promise<JsonObject> completion = Promise.promise();
  private Status status = Status.QUEUED;
  private String phase = "queued";
  long lines;
  long transactions;
  Instant latest;
  long created;
  long updated;
  long unchanged;
  long refused;
  long subjects;
  long decided;
  long failed;
  long decideStartedNanos;
  /** Every subject's verdict once decided (served a page at a time). */
  List<Verdict> verdicts = List.of();
  private JsonObject report;
  private String error;
  private Instant startedAt;
  private Instant finishedAt;
  private long seq;

  BacktestJob(JsonObject request) {
    this.request = request;
  }

  long createdAtMs() {
    return createdAtMs;
  }

  public String id() {
    return id;
  }

  public Status status() {
    return status;
  }

  public JsonObject report() {
    return report;
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

  void phase(String phase) {
    this.phase = phase;
  }

  void finish(JsonObject report, String error) {
    if (startedAt == null) {
      startedAt = Instant.now();
    }
    this.report = report;
    this.error = error;
    finishedAt = Instant.now();
    status = error == null ? Status.COMPLETED : Status.FAILED;
    phase = "done";
    completion.tryComplete(toJson(true));
  }

  public JsonObject toJson(boolean withReport) {
    double perSecond = decideStartedNanos == 0 ? Double.NaN
        : Metrics.throughput(decided + failed, System.nanoTime() - decideStartedNanos);
    if (report != null) {
      perSecond = report.getDouble("decisionsPerSecond", Double.NaN);
    }
    JsonObject json = new JsonObject().put("backtestId", id).put("status", status.wire()).put("phase", phase)
        .put("request", request)
        .put("world", new JsonObject().put("lines", lines).put("transactions", transactions)
            .put("latest", latest == null ? null : latest.toString()))
        .put("load", new JsonObject().put("created", created).put("updated", updated).put("unchanged", unchanged)
            .put("refused", refused))
        .put("subjects", subjects).put("decided", decided).put("failed", failed)
        .put("decisionsPerSecond", Metrics.json(perSecond));
    if (error != null) {
      json.put("error", error);
    }
    json.put("startedAt", startedAt == null ? null : startedAt.toString())
        .put("finishedAt", finishedAt == null ? null : finishedAt.toString()).put("lastEventId", seq);
    if (withReport && report != null) {
      json.put("report", report);
    }
    return json;
  }
}
