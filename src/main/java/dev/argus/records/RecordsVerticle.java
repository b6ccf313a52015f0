package dev.argus.records;

import dev.argus.bus.Addresses;
import dev.argus.bus.BusFailures;
import dev.argus.common.ApiException;
import dev.argus.common.Fields;
import dev.argus.config.RecordsConf;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.function.Function;

/**
 * The records capability on the bus ({@code argus.records.*}): load jobs over JSON Lines, get, query and delete, and
 * the evidence behind the agent tools {@code seller_profile}, {@code transaction_history} and {@code watchlist_match}.
 * A thin adapter over {@link RecordLoader}, {@link RecordStore}, {@link SellerSignals} and {@link WatchlistMatcher}.
 * At start, an empty store gets a generated world when {@code records.sampleWorldSellers} > 0 ({@link SampleWorld}).
 * {@link #stop()} lets running jobs finish the batch in hand and ends them failed ("shutdown").
 */
public final class RecordsVerticle extends VerticleBase {

  static final int MAX_JOBS = 64;
  public static final int MAX_TEXT_CHARS = 64 * 1024 * 1024;

  private final RecordsConf conf;
  private final RecordStore store;
  private final RecordValidator validator;
  private RecordLoader loader;
  private RecordJobs jobs;
  private SellerSignals signals;
  private WatchlistMatcher watchlist;
  private boolean stopping;
  private final Promise<Void> startupLoading = Promise.promise();

  public RecordsVerticle(RecordsConf conf, RecordStore store, RecordValidator validator) {
    this.conf = conf;
    this.store = store;
    this.validator = validator;
  }

  @Override
  public Future<?> start() {
    loader = new RecordLoader(vertx, store, validator, conf.batchSize(), conf.graphTimeoutMs(),
        conf.caseDocuments() ? new CaseDocuments(vertx, conf.caseNamespace(), false) : null);
    jobs = new RecordJobs(vertx, loader, MAX_JOBS, conf.maxErrorsKept());
    signals = new SellerSignals(store);
    watchlist = new WatchlistMatcher(store, signals);
    var eb = vertx.eventBus();
    List<Future<Void>> ready = List.of(
        eb.<JsonObject>consumer(Addresses.RECORDS_LOAD, this::load).completion(),
        eb.<JsonObject>consumer(Addresses.RECORDS_JOB_STATUS, this::status).completion(),
        eb.<JsonObject>consumer(Addresses.RECORDS_GET, msg -> reply(msg, this::get)).completion(),
        eb.<JsonObject>consumer(Addresses.RECORDS_QUERY, msg -> reply(msg, this::query)).completion(),
        eb.<JsonObject>consumer(Addresses.RECORDS_DELETE, msg -> reply(msg, this::delete)).completion(),
        eb.<JsonObject>consumer(Addresses.RECORDS_SELLER_PROFILE, msg -> reply(msg, b -> signals.profile(
            Fields.requiredString(b, "sellerId", 128), RecordQuery.time(b, "asOf")))).completion(),
        eb.<JsonObject>consumer(Addresses.RECORDS_TRANSACTION_HISTORY, msg -> reply(msg, b -> signals.history(
            Fields.requiredString(b, "sellerId", 128), RecordQuery.time(b, "asOf"),
            Fields.optionalString(b, "transactionId", 128)))).completion(),
        eb.<JsonObject>consumer(Addresses.RECORDS_WATCHLIST_MATCH, msg -> reply(msg,
            b -> watchlist.match(WatchlistQuery.fromJson(b)))).completion());
    // The sample world loads in the background; readiness follows it through startupLoading().
    return Future.all(ready).onSuccess(v -> SampleWorld.loadIfEmpty(vertx, conf, store, this::startJob)
        .onComplete(startupLoading));
  }

  /** Completes when start-up loading (the sample world, if any) has finished; readiness waits for it. */
  public Future<Void> startupLoading() {
    return startupLoading.future();
  }

  /** Runs {@code action} on the message body and replies with its result, or with its failure (4xx/5xx). */
  private static void reply(Message<JsonObject> msg, Function<JsonObject, Future<JsonObject>> action) {
    Future<JsonObject> result;
    try {
      result = action.apply(msg.body() == null ? new JsonObject() : msg.body());
    } catch (RuntimeException e) {
      result = Future.failedFuture(e);
    }
    result.onSuccess(msg::reply).onFailure(err -> BusFailures.fail(msg, err));
  }

  private void load(Message<JsonObject> msg) {
    try {
      JsonObject body = msg.body();
      String text = body.getString("text");
      if (text == null || text.isBlank()) {
        throw ApiException.badRequest("empty_batch", "no records to load");
      }
      if (text.length() > MAX_TEXT_CHARS) {
        throw ApiException.tooLarge("a load request may hold at most " + MAX_TEXT_CHARS + " characters");
      }
      RecordJob job = startJob(LineSource.of(text));
      if (body.getBoolean("wait", false)) {
        job.completion().onSuccess(msg::reply);
      } else {
        msg.reply(job.toJson(true));
      }
    } catch (RuntimeException e) {
      BusFailures.fail(msg, e);
    }
  }

  /** Starts a load job over {@code source} on this verticle's context. */
  RecordJob startJob(LineSource source) {
    if (stopping) {
      source.close();
      throw ApiException.unavailable("shutting_down", "the service is shutting down");
    }
    return jobs.start(source, () -> stopping);
  }

  private void status(Message<JsonObject> msg) {
    String id = msg.body().getString("jobId");
    jobs.get(id == null ? "" : id).ifPresentOrElse(job -> msg.reply(job.toJson(true)),
        () -> BusFailures.fail(msg, ApiException.notFound("unknown_job", "no record-loading job '" + id + "'")));
  }

  private Future<JsonObject> get(JsonObject body) {
    String id = RecordQuery.id(body, "id");
    if (id == null) {
      throw ApiException.badRequest("missing_field", "field 'id' is required");
    }
    Long asOf = RecordQuery.time(body, "asOf");
    return store.get(id).map(found -> found.map(b -> AsOf.view(b, asOf)).orElseThrow(() -> ApiException.notFound(
        "unknown_record", "no record '" + id + "'" + (asOf == null || found.isEmpty() ? "" : " as of "
            + RecordQuery.iso(asOf)))));
  }

  private Future<JsonObject> query(JsonObject body) {
    RecordQuery q = RecordQuery.fromJson(body);
    // one more than asked tells whether there is a next page
    RecordQuery probe = new RecordQuery(q.kinds(), q.sellerId(), q.buyerId(), q.subjectId(), q.fromMs(), q.toMs(),
        q.asOfMs(), q.offset(), q.limit() + 1);
    return store.query(probe).map(rows -> {
      JsonArray records = new JsonArray();
      rows.stream().limit(q.limit()).map(b -> AsOf.view(b, q.asOfMs())).forEach(records::add);
      return new JsonObject().put("records", records).put("offset", q.offset()).put("limit", q.limit())
          .put("hasMore", rows.size() > q.limit());
    });
  }

  private Future<JsonObject> delete(JsonObject body) {
    String id = RecordQuery.id(body, "id");
    if (id == null) {
      throw ApiException.badRequest("missing_field", "field 'id' is required");
    }
    return loader.delete(List.of(id)).map(deleted -> {
      if (deleted.isEmpty()) {
        throw ApiException.notFound("unknown_record", "no record '" + id + "'");
      }
      return new JsonObject().put("deleted", true).put("id", id);
    });
  }

  @Override
  public Future<?> stop() {
    stopping = true;
    return Future.join(jobs.running());
  }
}
