package dev.argus.records;

import dev.argus.common.ApiException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Runs load jobs on the owning verticle's context and keeps the last {@code maxJobs} of them in memory (the oldest
 * finished one makes room; when all are running a new one is refused with 503). Each job's events are published on
 * its address as they happen.
 */
final class RecordJobs {

  private final Vertx vertx;
  private final RecordLoader loader;
  private final int maxJobs;
  private final int maxErrorsKept;
  private final Map<String, RecordJob> jobs = new LinkedHashMap<>();

  RecordJobs(Vertx vertx, RecordLoader loader, int maxJobs, int maxErrorsKept) {
    this.vertx = vertx;
    this.loader = loader;
    this.maxJobs = maxJobs;
    this.maxErrorsKept = maxErrorsKept;
  }

  Optional<RecordJob> get(String id) {
    return Optional.ofNullable(jobs.get(id));
  }

  List<Future<JsonObject>> running() {
    List<Future<JsonObject>> out = new ArrayList<>();
    jobs.values().stream().filter(j -> !j.status().finished()).forEach(j -> out.add(j.completion()));
    return out;
  }

  /** Starts a job over {@code source} (closed when the job ends); returns it queued. */
  RecordJob start(LineSource source, BooleanSupplier stopping) {
    if (jobs.size() >= maxJobs) {
      jobs.values().stream().filter(j -> j.status().finished()).findFirst().ifPresent(j -> jobs.remove(j.id()));
    }
    if (jobs.size() >= maxJobs) {
      source.close();
      throw ApiException.unavailable("too_many_jobs", "too many record-loading jobs are running (" + maxJobs
          + "); try again later");
    }
    RecordJob job = new RecordJob(maxErrorsKept);
    jobs.put(job.id(), job);
    vertx.runOnContext(v -> {
      job.start();
      publish(job, RecordJobEvent.PROGRESS, job.toJson(false));
      loader.load(source, batch -> {
        job.record(batch);
        if (!batch.errors().isEmpty()) {
          JsonArray errs = new JsonArray();
          batch.errors().forEach(e -> errs.add(e.toJson()));
          publish(job, RecordJobEvent.ERRORS, new JsonObject().put("errors", errs));
        }
        publish(job, RecordJobEvent.PROGRESS, job.toJson(false));
      }, stopping).onComplete(ar -> {
        source.close();
        job.finish(ar.failed() ? "batch write failed: " + ar.cause().getMessage()
            : ar.result() ? "shutdown: the load was stopped between batches" : null);
        publish(job, RecordJobEvent.DONE, job.toJson(true));
        job.complete();
      });
    });
    return job;
  }

  private void publish(RecordJob job, String type, JsonObject data) {
    long seq = job.nextSeq();
    if (!RecordJobEvent.ERRORS.equals(type)) {
      data.put("lastEventId", seq);
    }
    vertx.eventBus().publish(dev.argus.bus.Addresses.recordJobEvents(job.id()),
        new RecordJobEvent(seq, type, data).toJson());
  }
}
