package dev.argus.ingest;

import dev.argus.common.Fields;

import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
import dev.argus.config.IngestConf;
import dev.argus.http.Bus;
import dev.argus.http.Requests;
import dev.argus.http.RouteGroup;
import dev.argus.http.SseStream;
import dev.argus.knowledge.Document;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.FileUpload;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code POST /api/documents} (JSON, JSONL or multipart upload; every request is a job: small inputs or
 * {@code ?wait=true} answer 201 with the finished job, larger ones 202 with the queued job at once),
 * {@code GET /api/ingest/jobs/{id}} and {@code GET /api/ingest/jobs/{id}/events} (SSE: {@code progress},
 * {@code document}, and a last {@code done}, each with an {@code id:}; a client that connects after the job
 * finished gets {@code done} at once). Everything is validated before the job is created: a bad request stores
 * nothing.
 */
public final class IngestRoutes implements RouteGroup {

  public static final int MAX_DOCUMENTS_PER_REQUEST = 20_000;
  static final long WAIT_TIMEOUT_MS = 30 * 60 * 1000L;
  static final long HEARTBEAT_MS = 15_000;

  private final Vertx vertx;
  private final Bus bus;
  private final IngestConf conf;
  private final long sendTimeoutMs;

  public IngestRoutes(Vertx vertx, Bus bus, IngestConf conf, long sendTimeoutMs) {
    this.vertx = vertx;
    this.bus = bus;
    this.conf = conf;
    this.sendTimeoutMs = sendTimeoutMs;
  }

  @Override
  public void mount(Router router) {
    router.post("/api/documents").handler(this::submit);
    router.get("/api/ingest/jobs/:id").respond(ctx -> bus.request(Addresses.INGEST_JOB_STATUS,
        new JsonObject().put("jobId", ctx.pathParam("id"))));
    router.get("/api/ingest/jobs/:id/events").handler(this::events);
  }

  private void submit(RoutingContext ctx) {
    boolean wait = waitParam(ctx);
    String namespace = ctx.request().getParam("namespace");
    String defaultNamespace = DocumentRules.namespace(namespace == null || namespace.isBlank()
        ? Document.DEFAULT_NAMESPACE : namespace);
    String type = mediaType(ctx);
    Future<Input> input = switch (type) {
      case "application/json" -> Future.succeededFuture(new Input(fromJson(Requests.jsonObject(ctx), defaultNamespace),
          ctx.body().length()));
      case "application/x-ndjson", "application/jsonl", "application/x-jsonl", "application/x-jsonlines" ->
          Future.succeededFuture(new Input(JsonlParser.parse(bodyText(ctx), "body", defaultNamespace,
              MAX_DOCUMENTS_PER_REQUEST, conf.maxDocumentChars()), ctx.body().length()));
      case "multipart/form-data" -> fromUploads(ctx, defaultNamespace);
      default -> throw ApiException.unsupportedMedia("unsupported Content-Type '" + type + "': use application/json, "
          + "application/x-ndjson (JSONL) or multipart/form-data");
    };
    input.compose(in -> {
      boolean sync = wait || in.bytes() < conf.asyncThresholdBytes();
      return bus.request(Addresses.INGEST_SUBMIT, new IngestRequest(in.documents(), sync).toJson(),
              sync ? Math.max(WAIT_TIMEOUT_MS, sendTimeoutMs) : sendTimeoutMs)
          .map(job -> ctx.response().setStatusCode(sync ? 201 : 202)
              .putHeader("Location", "/api/ingest/jobs/" + job.getString("jobId"))
              .putHeader("Content-Type", "application/json")
              .end(job.encode()));
    }).onFailure(ctx::fail);
  }

  private record Input(List<SourceDocument> documents, long bytes) {
  }

  private List<SourceDocument> fromJson(JsonObject body, String defaultNamespace) {
    if (!body.containsKey("documents")) {
      return List.of(SourceDocument.fromApi(body, defaultNamespace, "document", conf.maxDocumentChars()));
    }
    JsonArray array = Fields.optionalArray(body, "documents");
    if (array == null || array.isEmpty()) {
      throw ApiException.badRequest("empty_batch", "field 'documents' must be a non-empty array");
    }
    if (array.size() > MAX_DOCUMENTS_PER_REQUEST) {
      throw ApiException.tooLarge("a request may hold at most " + MAX_DOCUMENTS_PER_REQUEST + " documents");
    }
    List<SourceDocument> docs = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      if (!(array.getValue(i) instanceof JsonObject obj)) {
        throw ApiException.badRequest("invalid_field", "documents[" + i + "] must be a JSON object");
      }
      docs.add(SourceDocument.fromApi(obj, defaultNamespace, "documents[" + i + "]", conf.maxDocumentChars()));
    }
    return docs;
  }

  private Future<Input> fromUploads(RoutingContext ctx, String defaultNamespace) {
    String formNamespace = ctx.request().getFormAttribute("namespace");
    String namespace = formNamespace == null || formNamespace.isBlank() ? defaultNamespace
        : DocumentRules.namespace(formNamespace);
    List<FileUpload> uploads = ctx.fileUploads();
    if (uploads.isEmpty()) {
      throw ApiException.badRequest("no_files", "the multipart request holds no files");
    }
    long bytes = 0;
    for (FileUpload upload : uploads) {
      String name = upload.fileName();
      if (upload.size() > conf.maxFileBytes()) {
        throw ApiException.tooLarge("file '" + name + "' is " + upload.size() + " bytes; the limit per file is "
            + conf.maxFileBytes() + " bytes (ingest.maxFileBytes)");
      }
      if (!Format.isSupportedFile(name)) {
        throw ApiException.unsupportedMedia("file '" + name + "' has an unsupported type: use .txt, .md, .markdown, "
            + ".html, .htm or .jsonl");
      }
      bytes += upload.size();
    }
    long total = bytes;
    List<Future<List<SourceDocument>>> reads = new ArrayList<>();
    for (FileUpload upload : uploads) {
      reads.add(vertx.fileSystem().readFile(upload.uploadedFileName()).map(buffer -> {
        String name = upload.fileName();
        String content = buffer.toString(StandardCharsets.UTF_8);
        if (content.isBlank()) {
          throw ApiException.badRequest("empty_text", "file '" + name + "' is empty");
        }
        if (Format.isJsonl(name)) {
          return JsonlParser.parse(content, name, namespace, MAX_DOCUMENTS_PER_REQUEST, conf.maxDocumentChars());
        }
        return List.of(SourceDocument.ofFile(name, Format.ofFileName(name).orElseThrow(), content, namespace));
      }));
    }
    return Future.all(reads).map(all -> {
      List<SourceDocument> docs = new ArrayList<>();
      for (int i = 0; i < all.size(); i++) {
        docs.addAll(all.<List<SourceDocument>>resultAt(i));
      }
      if (docs.size() > MAX_DOCUMENTS_PER_REQUEST) {
        throw ApiException.tooLarge("a request may hold at most " + MAX_DOCUMENTS_PER_REQUEST + " documents");
      }
      return new Input(docs, total);
    });
  }

  private void events(RoutingContext ctx) {
    String jobId = ctx.pathParam("id");
    MessageConsumer<JsonObject> consumer = vertx.eventBus().consumer(Addresses.ingestJobEvents(jobId));
    JobRelay relay = new JobRelay(consumer);
    consumer.handler(msg -> relay.onEvent(JobEvent.fromJson(msg.body())));
    consumer.completion()
        .compose(v -> bus.request(Addresses.INGEST_JOB_STATUS, new JsonObject().put("jobId", jobId)))
        .onSuccess(job -> relay.open(SseStream.start(vertx, ctx.response(), HEARTBEAT_MS), job))
        .onFailure(err -> {
          consumer.unregister();
          ctx.fail(err);
        });
  }

  /** Relays one job's bus events to one SSE client: a snapshot first, then every newer event, until {@code done}. */
  private static final class JobRelay {
    private final MessageConsumer<JsonObject> consumer;
    private final List<JobEvent> early = new ArrayList<>();
    private SseStream stream;
    private long lastSent = -1;

    JobRelay(MessageConsumer<JsonObject> consumer) {
      this.consumer = consumer;
    }

    void open(SseStream stream, JsonObject job) {
      this.stream = stream;
      stream.onClose(consumer::unregister);
      long seq = job.getLong("lastEventId", 0L);
      if (IngestJob.Status.valueOf(job.getString("status").toUpperCase(Locale.ROOT)).finished()) {
        stream.send(Long.toString(seq), JobEvent.DONE, job);
        stream.end();
        return;
      }
      JsonObject progress = job.copy();
      progress.remove("documents");
      stream.send(Long.toString(seq), JobEvent.PROGRESS, progress);
      lastSent = seq;
      early.forEach(this::onEvent);
      early.clear();
    }

    void onEvent(JobEvent event) {
      if (stream == null) {
        early.add(event);
        return;
      }
      if (stream.isClosed() || event.seq() <= lastSent) {
        return;
      }
      lastSent = event.seq();
      stream.send(Long.toString(event.seq()), event.type(), event.data());
      if (JobEvent.DONE.equals(event.type())) {
        stream.end();
      } else if (stream.writeQueueFull()) {
        consumer.pause();
        stream.onDrain(consumer::resume);
      }
    }
  }

  private static boolean waitParam(RoutingContext ctx) {
    String wait = ctx.request().getParam("wait");
    if (wait == null || wait.isEmpty() || wait.equals("false")) {
      return false;
    }
    if (wait.equals("true")) {
      return true;
    }
    throw ApiException.badRequest("invalid_parameter", "query parameter 'wait' must be true or false");
  }

  private static String mediaType(RoutingContext ctx) {
    String header = ctx.request().getHeader("Content-Type");
    if (header == null || header.isBlank()) {
      throw ApiException.unsupportedMedia("missing Content-Type: use application/json, application/x-ndjson (JSONL) "
          + "or multipart/form-data");
    }
    int semi = header.indexOf(';');
    return (semi < 0 ? header : header.substring(0, semi)).strip().toLowerCase(Locale.ROOT);
  }

  private static String bodyText(RoutingContext ctx) {
    if (ctx.body() == null || ctx.body().length() == 0) {
      throw ApiException.badRequest("empty_batch", "request body is empty; expected JSONL");
    }
    return ctx.body().asString(StandardCharsets.UTF_8.name());
  }
}
