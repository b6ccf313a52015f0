package dev.argus.ingest;

import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
import dev.argus.bus.BusFailures;
import dev.argus.config.IngestConf;
import dev.argus.embed.Embedder;
import dev.argus.knowledge.KnowledgeStore;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * Ingestion jobs over the bus ({@link Addresses#INGEST_SUBMIT}, {@link Addresses#INGEST_JOB_STATUS}): each job
 * runs its documents in order through {@link IngestService#ingestAll} (a pipeline: the next chunks are embedded
 * while earlier documents are written), publishing its events on {@link Addresses#ingestJobEvents(String)}; several
 * jobs may run at once. At start, loads the sample knowledge base into an empty store (when
 * {@code ingest.loadSamples}). {@link #stop()} lets the documents whose embedding has begun finish (each is either
 * written whole or rolled back), marks the rest of its job failed with reason "shutdown", and completes when every
 * job has finished.
 */
public final class IngestVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(IngestVerticle.class.getName());
  static final int MAX_JOBS = 256;
  static final Duration JOB_TTL = Duration.ofHours(1);

  private final IngestConf conf;
  private final Embedder embedder;
  private final KnowledgeStore knowledge;
  private IngestService service;
  private IngestJobs jobs;
  private boolean stopping;
  private final List<Future<JsonObject>> running = new ArrayList<>();

  public IngestVerticle(IngestConf conf, Embedder embedder, KnowledgeStore knowledge) {
    this.conf = conf;
    this.embedder = embedder;
    this.knowledge = knowledge;
  }

  @Override
  public Future<?> start() {
    service = new IngestService(vertx, conf, embedder, knowledge);
    jobs = new IngestJobs(MAX_JOBS, JOB_TTL);
    var submit = vertx.eventBus().<JsonObject>consumer(Addresses.INGEST_SUBMIT, this::submit);
    var status = vertx.eventBus().<JsonObject>consumer(Addresses.INGEST_JOB_STATUS, this::status);
    return Future.all(submit.completion(), status.completion()).compose(v -> loadSamples());
  }

  private void submit(Message<JsonObject> msg) {
    try {
      IngestRequest request = IngestRequest.fromJson(msg.body());
      if (request.documents().isEmpty()) {
        throw ApiException.badRequest("empty_batch", "no documents to ingest");
      }
      IngestJob job = startJob(request.documents());
      if (request.waitForCompletion()) {
        job.completion().onSuccess(msg::reply);
      } else {
        msg.reply(job.toJson(true));
      }
    } catch (RuntimeException e) {
      BusFailures.fail(msg, e);
    }
  }

  private void status(Message<JsonObject> msg) {
    String id = msg.body().getString("jobId");
    jobs.get(id == null ? "" : id).ifPresentOrElse(job -> msg.reply(job.toJson(true)),
        () -> BusFailures.fail(msg, ApiException.notFound("unknown_job", "no ingestion job '" + id + "'")));
  }

  /** Creates a job and starts running it on this verticle's context. */
  IngestJob startJob(List<SourceDocument> docs) {
    if (stopping) {
      throw ApiException.unavailable("shutting_down", "the service is shutting down");
    }
    IngestJob job = jobs.create(docs.size());
    running.add(job.completion());
    job.completion().onComplete(ar -> running.remove(job.completion()));
    context.runOnContext(v -> {
      job.start();
      publish(job, JobEvent.PROGRESS, job.toJson(false));
      run(job, docs);
    });
    return job;
  }

  /**
   * Runs the job's documents through the service's pipeline. The pipeline calls back on this verticle's context
   * (it is started here), so job state is only ever touched here.
   */
  private void run(IngestJob job, List<SourceDocument> docs) {
    service.ingestAll(docs, outcomes -> {
      for (DocumentOutcome outcome : outcomes) {
        job.record(outcome);
        publish(job, JobEvent.DOCUMENT, outcome.toJson());
        if (outcome.isFailure()) {
          LOG.warning("ingestion job " + job.id() + ": " + outcome.error());
        }
      }
      publish(job, JobEvent.PROGRESS, job.toJson(false));
    }, () -> stopping).onComplete(ar -> finish(job, ar.failed() || ar.result()));
  }

  private void finish(IngestJob job, boolean cutShort) {
    job.finish(cutShort);
    publish(job, JobEvent.DONE, job.toJson(true));
    LOG.info("ingestion job " + job.id() + " " + job.status().wireName() + ": " + job.toJson(false).encode());
    job.complete();
  }

  private void publish(IngestJob job, String type, JsonObject data) {
    long seq = job.nextSeq();
    if (JobEvent.PROGRESS.equals(type) || JobEvent.DONE.equals(type)) {
      data.put("lastEventId", seq);
    }
    vertx.eventBus().publish(Addresses.ingestJobEvents(job.id()), new JobEvent(seq, type, data).toJson());
  }

  /** First start: an empty store gets the bundled sample knowledge base, ingested as a background job. */
  private Future<Void> loadSamples() {
    if (!conf.loadSamples()) {
      return Future.succeededFuture();
    }
    return knowledge.list(null, 0, 1).compose(page -> {
      if (page.total() > 0) {
        return Future.succeededFuture();
      }
      return vertx.executeBlocking(() -> SampleDocuments.load(conf.samplesPath(), conf.samplesNamespace()), false)
          .map(docs -> {
            if (docs.isEmpty()) {
              LOG.info("no sample knowledge base on the classpath at " + conf.samplesPath() + "/index.txt");
            } else {
              IngestJob job = startJob(docs);
              LOG.info("empty knowledge store: loading " + docs.size() + " sample documents from "
                  + conf.samplesPath() + " as ingestion job " + job.id());
            }
            return null;
          });
    });
  }

  @Override
  public Future<?> stop() {
    stopping = true;
    List<Future<JsonObject>> pending = List.copyOf(running);
    if (!pending.isEmpty()) {
      LOG.info("stopping: letting " + pending.size() + " ingestion job(s) finish their current documents");
    }
    return Future.join(pending);
  }
}
