package dev.argus.ingest;

import dev.argus.bus.Addresses;
import dev.argus.bus.BusFailures;
import dev.argus.common.ApiException;
import dev.argus.config.IngestConf;
import dev.argus.embed.Embedder;
import dev.argus.knowledge.KnowledgeStore;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.logging.Logger;

/**
 * Ingestion jobs over the bus ({@link Addresses#INGEST_SUBMIT}, {@link Addresses#INGEST_JOB_STATUS}): each job
 * runs its documents in order through {@link IngestService#ingestAll} (a pipeline: the next chunks are embedded
 * while earlier documents are written), publishing its events on {@link Addresses#ingestJobEvents(String)}; several
 * jobs may run at once. Jobs are recorded in the {@link JobStore} (created, progress, end), so a job id keeps
 * answering after a restart, together with the request a job still has to run (until it ends). At start, a single
 * process resumes the jobs a previous process left unfinished (killed) after the documents their record lists — each
 * document is written whole or not at all, and one written after the last record is found {@code unchanged} —, at
 * most {@link #MAX_RESUMES} times in a row without progress; jobs that cannot be resumed (no kept request, too many resumes, or in
 * cluster mode, where another node may be running them) are marked {@code interrupted}. Jobs older than
 * {@code ingest.jobRetentionHours} are deleted. Then, into an empty store, the sample knowledge base is
 * loaded ({@code ingest.loadSamples}); {@link #startupLoading()} completes when that is done. {@link #stop()} lets
 * the documents whose embedding has begun finish (each is either written whole or rolled back), marks the rest of
 * its job failed with reason "shutdown", and completes when every job has finished.
 */
public final class IngestVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(IngestVerticle.class.getName());
  static final int MAX_JOBS = 256;
  static final Duration JOB_TTL = Duration.ofHours(1);
  static final long RECORD_INTERVAL_MS = 1_000;
  /**
   * A job cut short this many times in a row after resumes that made no progress (its input may be what kills the
   * process) is not resumed again.
   */
  static final int MAX_RESUMES = 3;
  private static final Pattern JOB_ID = Pattern.compile("[A-Za-z0-9-]{1,64}");

  private final IngestConf conf;
  private final Embedder embedder;
  private final KnowledgeStore knowledge;
  private final JobStore store;
  private final boolean resume;
  private final Promise<Void> startupLoading = Promise.promise();
  private IngestService service;
  private IngestJobs jobs;
  private JobRecorder recorder;
  private boolean stopping;
  private final List<Future<JsonObject>> running = new ArrayList<>();

  /** Jobs in memory only (no history across restarts), for in-process tools. */
  public IngestVerticle(IngestConf conf, Embedder embedder, KnowledgeStore knowledge) {
    this(conf, embedder, knowledge, JobStore.none());
  }

  /** A single process: unfinished jobs of an earlier process are resumed. */
  public IngestVerticle(IngestConf conf, Embedder embedder, KnowledgeStore knowledge, JobStore store) {
    this(conf, embedder, knowledge, store, true);
  }

  /** {@code resume}: false in cluster mode, where unfinished jobs are only marked interrupted. */
  public IngestVerticle(IngestConf conf, Embedder embedder, KnowledgeStore knowledge, JobStore store, boolean resume) {
    this.conf = conf;
    this.embedder = embedder;
    this.knowledge = knowledge;
    this.store = store;
    this.resume = resume;
  }

  /** Completes when start-up loading (the sample knowledge base, if any) has finished, successfully or not. */
  public Future<Void> startupLoading() {
    return startupLoading.future();
  }

  @Override
  public Future<?> start() {
    service = new IngestService(vertx, conf, embedder, knowledge);
    jobs = new IngestJobs(MAX_JOBS, JOB_TTL);
    recorder = new JobRecorder(vertx, store, RECORD_INTERVAL_MS);
    long cutoff = System.currentTimeMillis() - Duration.ofHours(conf.jobRetentionHours()).toMillis();
    int[] resumed = {0};
    return (resume ? resumeUnfinished().onSuccess(n -> resumed[0] = n) : store.markInterrupted()
        .onSuccess(n -> {
          if (n > 0) {
            LOG.warning(n + " ingestion job(s) of an earlier run did not finish: marked interrupted");
          }
        }))
        .compose(n -> store.deleteFinishedBefore(cutoff))
        .compose(n -> {
          var submit = vertx.eventBus().<JsonObject>consumer(Addresses.INGEST_SUBMIT, this::submit);
          var status = vertx.eventBus().<JsonObject>consumer(Addresses.INGEST_JOB_STATUS, this::status);
          return Future.all(submit.completion(), status.completion());
        })
        // a resumed job may be the samples' own, cut short before it stored anything
        .compose(v -> resumed[0] > 0 ? Future.<Void>succeededFuture().onComplete(x -> startupLoading.tryComplete())
            : loadSamples())
        .onFailure(startupLoading::tryFail);
  }

  private void submit(Message<JsonObject> msg) {
    IngestRequest request;
    try {
      request = IngestRequest.fromJson(msg.body());
      if (request.documents().isEmpty() && request.rejected().isEmpty()) {
        throw ApiException.badRequest("empty_batch", "no documents to ingest");
      }
    } catch (RuntimeException e) {
      BusFailures.fail(msg, e);
      return;
    }
    startJob(request).onSuccess(job -> {
      if (request.waitForCompletion()) {
        job.completion().onSuccess(msg::reply);
      } else {
        msg.reply(job.toJson(true));
      }
    }).onFailure(err -> BusFailures.fail(msg, err));
  }

  private void status(Message<JsonObject> msg) {
    String id = msg.body().getString("jobId");
    if (id == null || !JOB_ID.matcher(id).matches()) {
      BusFailures.fail(msg, unknownJob(id));
      return;
    }
    jobs.get(id).ifPresentOrElse(job -> msg.reply(job.toJson(true)), () -> store.find(id)
        .onSuccess(found -> found.ifPresentOrElse(msg::reply, () -> BusFailures.fail(msg, unknownJob(id))))
        .onFailure(err -> BusFailures.fail(msg, err)));
  }

  private static ApiException unknownJob(String id) {
    String shown = id == null ? "" : id.length() > 64 ? id.substring(0, 64) + "..." : id;
    return ApiException.notFound("unknown_job", "no ingestion job '" + shown + "'");
  }

  /**
   * Creates a job, records it, then runs it on this verticle's context; fails (503) when shutting down, when every
   * job slot is busy, or when the job cannot be recorded (it then never runs).
   */
  Future<IngestJob> startJob(IngestRequest request) {
    if (stopping) {
      return Future.failedFuture(ApiException.unavailable("shutting_down", "the service is shutting down"));
    }
    IngestJob job;
    try {
      job = jobs.create(request.documents().size() + request.rejected().size());
    } catch (ApiException e) {
      return Future.failedFuture(e);
    }
    track(job);
    return recorder.created(job, request.toJson()).recover(err -> {
      jobs.remove(job.id());
      job.finish(true);
      job.complete();
      LOG.warning("ingestion job " + job.id() + " could not be recorded: " + err);
      return Future.failedFuture(ApiException.unavailable("job_store_unavailable",
          "the ingestion job could not be recorded; try again later"));
    }).map(v -> {
      context.runOnContext(x -> {
        job.start();
        publish(job, JobEvent.PROGRESS, job.toJson(false));
        for (DocumentOutcome rejected : request.rejected()) {
          job.record(rejected);
          publish(job, JobEvent.DOCUMENT, rejected.toJson());
        }
        run(job, request);
      });
      return job;
    });
  }

  private void track(IngestJob job) {
    running.add(job.completion());
    job.completion().onComplete(ar -> running.remove(job.completion()));
  }

  /** At start: resumes every unfinished job that can be, marks the others interrupted; the number resumed. */
  private Future<Integer> resumeUnfinished() {
    return store.unfinished().compose(list -> {
      int[] resumed = {0};
      Future<Void> chain = Future.succeededFuture();
      for (JobStore.Unfinished u : list) {
        chain = chain.compose(v -> {
          if (u.request() == null) {
            return store.interrupt(u.job(), "its request was not kept");
          }
          int processed = u.job().getInteger("processed", 0);
          int stalled = processed > u.progress() ? 0 : u.attempts(); // resumes since it last made progress
          if (stalled >= MAX_RESUMES) {
            return store.interrupt(u.job(), "resumed " + stalled + " times without progress, cut short each time;"
                + " not resumed again");
          }
          return store.resuming(u.job().getString("jobId"), stalled + 1, processed).compose(x -> resumeJob(u))
              .onSuccess(x -> resumed[0]++)
              .recover(err -> { // left as it is: the next start tries again
                LOG.warning("ingestion job " + u.job().getString("jobId") + " could not be resumed: " + err);
                return Future.succeededFuture();
              });
        });
      }
      return chain.map(v -> {
        if (!list.isEmpty()) {
          LOG.warning(list.size() + " ingestion job(s) of an earlier run did not finish: " + resumed[0] + " resumed, "
              + (list.size() - resumed[0]) + " marked interrupted");
        }
        return resumed[0];
      });
    });
  }

  /** Resumes one job after the outcomes its record lists (the rejected inputs first, then its documents in order). */
  private Future<Void> resumeJob(JobStore.Unfinished u) {
    IngestRequest request;
    IngestJob job;
    try {
      request = IngestRequest.fromJson(u.request());
      job = IngestJob.resume(u.job());
    } catch (RuntimeException e) {
      return store.interrupt(u.job(), "its kept request cannot be read: " + e.getMessage());
    }
    jobs.adopt(job);
    track(job);
    return recorder.resumed(job).onFailure(err -> {
      jobs.remove(job.id());
      job.complete();
    }).map(v -> {
      context.runOnContext(x -> proceed(job, request));
      return null;
    });
  }

  /** Goes on with a resumed job: the rejected inputs its record misses, then the documents after its last outcome. */
  private void proceed(IngestJob job, IngestRequest request) {
    int done = job.processed();
    int rejected = request.rejected().size();
    List<SourceDocument> rest = request.documents().subList(Math.min(Math.max(0, done - rejected),
        request.documents().size()), request.documents().size());
    LOG.info("resuming ingestion job " + job.id() + " (resume " + job.resumed() + "): " + done + " of " + job.total()
        + " documents done, " + rest.size() + " to go");
    job.start();
    publish(job, JobEvent.PROGRESS, job.toJson(false));
    for (DocumentOutcome r : request.rejected().subList(Math.min(done, rejected), rejected)) {
      job.record(r);
      publish(job, JobEvent.DOCUMENT, r.toJson());
    }
    run(job, new IngestRequest(rest, List.of(), request.replace(), false));
  }

  /**
   * Runs the job's documents through the service's pipeline. The pipeline calls back on this verticle's context
   * (it is started here), so job state is only ever touched here.
   */
  private void run(IngestJob job, IngestRequest request) {
    service.ingestAll(request.documents(), request.replace(), outcomes -> {
      for (DocumentOutcome outcome : outcomes) {
        job.record(outcome);
        dev.argus.metrics.ArgusMeters.ingested(vertx, outcome.outcome().wireName(), outcome.chunks());
        publish(job, JobEvent.DOCUMENT, outcome.toJson());
        if (outcome.isFailure()) {
          LOG.warning("ingestion job " + job.id() + ": " + outcome.error());
        }
      }
      publish(job, JobEvent.PROGRESS, job.toJson(false));
      recorder.changed(job);
    }, () -> stopping).onComplete(ar -> finish(job, ar.failed() || ar.result()));
  }

  private void finish(IngestJob job, boolean cutShort) {
    job.finish(cutShort);
    long doneSeq = job.nextSeq(); // the done event's id, so that the record says the same lastEventId
    recorder.finished(job).onFailure(err -> LOG.warning("ingestion job " + job.id()
        + ": recording its end failed: " + err)).onComplete(ar -> {
      publish(job, JobEvent.DONE, job.toJson(true), doneSeq);
      LOG.info("ingestion job " + job.id() + " " + job.status().wireName() + ": " + job.toJson(false).encode());
      job.complete();
    });
  }

  private void publish(IngestJob job, String type, JsonObject data) {
    publish(job, type, data, job.nextSeq());
  }

  private void publish(IngestJob job, String type, JsonObject data, long seq) {
    if (JobEvent.PROGRESS.equals(type) || JobEvent.DONE.equals(type)) {
      data.put("lastEventId", seq);
    }
    vertx.eventBus().publish(Addresses.ingestJobEvents(job.id()), new JobEvent(seq, type, data).toJson());
  }

  /** First start: an empty store gets the bundled sample knowledge base, ingested as a background job. */
  private Future<Void> loadSamples() {
    if (!conf.loadSamples()) {
      startupLoading.tryComplete();
      return Future.succeededFuture();
    }
    return knowledge.list(null, 0, 1).compose(page -> {
      if (page.total() > 0) {
        startupLoading.tryComplete();
        return Future.succeededFuture();
      }
      return vertx.executeBlocking(() -> SampleDocuments.load(conf.samplesPath(), conf.samplesNamespace()), false)
          .compose(docs -> {
            if (docs.isEmpty()) {
              LOG.info("no sample knowledge base on the classpath at " + conf.samplesPath() + "/index.txt");
              startupLoading.tryComplete();
              return Future.succeededFuture();
            }
            return startJob(new IngestRequest(docs, false)).map(job -> {
              LOG.info("empty knowledge store: loading " + docs.size() + " sample documents from "
                  + conf.samplesPath() + " as ingestion job " + job.id());
              job.completion().onComplete(ar -> startupLoading.tryComplete());
              return null;
            });
          });
    });
  }

  @Override
  public Future<?> stop() {
    stopping = true;
    startupLoading.tryComplete();
    List<Future<JsonObject>> pending = List.copyOf(running);
    if (!pending.isEmpty()) {
      LOG.info("stopping: letting " + pending.size() + " ingestion job(s) finish their current documents");
    }
    return Future.join(pending);
  }
}
