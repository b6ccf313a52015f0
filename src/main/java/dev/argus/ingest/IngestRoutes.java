package dev.argus.ingest;

import dev.argus.http.Permission;
import io.vertx.core.http.HttpMethod;
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
 * finished gets {@code done} at once, one that reconnects after reading {@code done} gets 204). Everything is
 * validated before the job is created: a bad request stores nothing; bad lines of a JSONL batch and bad files of a
 * multi-file upload are reported in the job while the good ones are stored. {@code replace=true|false} (query or
 * form field) says whether stored documents of the same id may be replaced ({@link ReplaceMode}).
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

  /** Reads need {@code read}; writes need {@code ingest}. */
  @Override
  public Permission permission(HttpMethod method) {
    return Permission.defaultFor(method) == Permission.READ ? Permission.READ : Permission.INGEST;
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
    ReplaceMode replace = ReplaceMode.fromParameter(first(ctx.request().getParam("replace"),
        ctx.request().getFormAttribute("replace")));
    Future<Input> input = switch (type) {
      case "application/json" -> Future.succeededFuture(new Input(fromJson(Requests.jsonObject(ctx), defaultNamespace),
          List.of(), ctx.body().length()));
      case "application/x-ndjson", "application/jsonl", "application/x-jsonl", "application/x-jsonlines" -> {
        JsonlParser.Batch batch = JsonlParser.parse(bodyText(ctx), "body", defaultNamespace,
            MAX_DOCUMENTS_PER_REQUEST, conf.maxDocumentChars());
        yield Future.succeededFuture(new Input(batch.documents(), batch.rejected(), ctx.body().length()));
      }
      case "multipart/form-data" -> fromUploads(ctx, defaultNamespace);
      default -> throw ApiException.unsupportedMedia("unsupported Content-Type '" + clip(type) + "': use "
          + "application/json, application/x-ndjson (JSONL) or multipart/form-data");
    };
    input.compose(in -> {
      boolean sync = wait || in.bytes() < conf.asyncThresholdBytes();
      return bus.request(Addresses.INGEST_SUBMIT, new IngestRequest(in.documents(), in.rejected(), replace, sync)
              .toJson(), sync ? Math.max(WAIT_TIMEOUT_MS, sendTimeoutMs) : sendTimeoutMs)
          .map(job -> ctx.response().setStatusCode(sync ? 201 : 202)
              .putHeader("Location", "/api/ingest/jobs/" + job.getString("jobId"))
              .putHeader("Content-Type", "application/json")
              .end(job.encode()));
    }).onFailure(ctx::fail);
  }

  /** What a request holds: the documents to ingest, the inputs already rejected, and its size in bytes. */
  private record Input(List<SourceDocument> documents, List<DocumentOutcome> rejected, long bytes) {
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

  /**
   * The files of a multipart upload: each good file is ingested; each bad one (too large, unsupported type, empty,
   * binary, or a JSONL file without a good line) and each bad line of a JSONL file is reported in the job. Only
   * when no file holds a single good document does the request fail, with the first file's error.
   */
  private Future<Input> fromUploads(RoutingContext ctx, String defaultNamespace) {
    String formNamespace = ctx.request().getFormAttribute("namespace");
    String namespace = formNamespace == null || formNamespace.isBlank() ? defaultNamespace
        : DocumentRules.namespace(formNamespace);
    List<FileUpload> uploads = ctx.fileUploads();
    if (uploads.isEmpty()) {
      throw ApiException.badRequest("no_files", "the multipart request holds no files");
    }
    long bytes = uploads.stream().mapToLong(FileUpload::size).sum();
    List<Future<FileRead>> reads = new ArrayList<>();
    for (FileUpload upload : uploads) {
      reads.add(read(upload, namespace).recover(err -> Future.succeededFuture(new FileRead(List.of(), List.of(),
          upload.fileName(), err instanceof ApiException api ? api : ApiException.badRequest("unreadable_file",
          "file '" + upload.fileName() + "' could not be read: " + IngestService.reason(err))))));
    }
    return Future.all(reads).map(all -> {
      List<SourceDocument> docs = new ArrayList<>();
      List<DocumentOutcome> rejected = new ArrayList<>();
      ApiException firstError = null;
      for (int i = 0; i < all.size(); i++) {
        FileRead file = all.resultAt(i);
        docs.addAll(file.documents());
        rejected.addAll(file.rejected());
        if (file.error() != null) {
          firstError = firstError == null ? file.error() : firstError;
          rejected.add(new DocumentOutcome(file.name(), DocumentOutcome.Outcome.FAILED, 0, file.error().getMessage()));
        }
      }
      if (docs.isEmpty()) {
        throw firstError != null ? firstError : ApiException.badRequest("empty_batch", "the upload holds no documents");
      }
      if (docs.size() + rejected.size() > MAX_DOCUMENTS_PER_REQUEST) {
        throw ApiException.tooLarge("a request may hold at most " + MAX_DOCUMENTS_PER_REQUEST + " documents");
      }
      return new Input(docs, rejected, bytes);
    });
  }

  /** One uploaded file: its documents and rejected lines, or the error that rejects the whole file. */
  private record FileRead(List<SourceDocument> documents, List<DocumentOutcome> rejected, String name,
                          ApiException error) {
  }

  private Future<FileRead> read(FileUpload upload, String namespace) {
    String name = upload.fileName();
    if (upload.size() > conf.maxFileBytes()) {
      return Future.failedFuture(ApiException.tooLarge("file '" + name + "' is " + upload.size()
          + " bytes; the limit per file is " + conf.maxFileBytes() + " bytes (ingest.maxFileBytes)"));
    }
    if (!Format.isSupportedFile(name)) {
      return Future.failedFuture(ApiException.unsupportedMedia("file '" + name + "' has an unsupported type: use "
          + ".txt, .md, .markdown, .html, .htm or .jsonl"));
    }
    return vertx.fileSystem().readFile(upload.uploadedFileName()).map(buffer -> {
      String content = DocumentRules.fileContent(name, buffer.toString(StandardCharsets.UTF_8));
      if (Format.isJsonl(name)) {
        JsonlParser.Batch batch = JsonlParser.parse(content, name, namespace, MAX_DOCUMENTS_PER_REQUEST,
            conf.maxDocumentChars());
        return new FileRead(batch.documents(), batch.rejected(), name, null);
      }
      return new FileRead(List.of(SourceDocument.ofFile(name, Format.ofFileName(name).orElseThrow(), content,
          namespace)), List.of(), name, null);
    });
  }

  private void events(RoutingContext ctx) {
    String jobId = ctx.pathParam("id");
    MessageConsumer<JsonObject> consumer = vertx.eventBus().consumer(Addresses.ingestJobEvents(jobId));
    JobRelay relay = new JobRelay(consumer);
    consumer.handler(msg -> relay.onEvent(JobEvent.fromJson(msg.body())));
    consumer.completion()
        .compose(v -> bus.request(Addresses.INGEST_JOB_STATUS, new JsonObject().put("jobId", jobId)))
        .onSuccess(job -> {
          boolean finished = IngestJob.Status.valueOf(job.getString("status").toUpperCase(Locale.ROOT)).finished();
          if (SseStream.endReconnect(ctx.request(), finished, lastEventId(ctx) >= job.getLong("lastEventId", 0L))) {
            consumer.unregister(); // the client read the finished job to its end: 204 stops EventSource
            return;
          }
          relay.open(SseStream.start(vertx, ctx.request(), HEARTBEAT_MS), job);
        })
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

  private static long lastEventId(RoutingContext ctx) {
    try {
      return Long.parseLong(ctx.request().getHeader("Last-Event-ID").strip());
    } catch (RuntimeException e) {
      return -1;
    }
  }

  private static String first(String a, String b) {
    return a != null && !a.isBlank() ? a : b;
  }

  private static String clip(String s) {
    return s.length() > 100 ? s.substring(0, 100) + "..." : s;
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
    if (ctx.body() == null || ctx.body().buffer() == null || ctx.body().length() <= 0) {
      throw ApiException.badRequest("empty_batch", "request body is empty; expected JSONL");
    }
    return ctx.body().asString(StandardCharsets.UTF_8.name());
  }
}
