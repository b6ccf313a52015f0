package dev.argus.ingest;

import dev.argus.bus.Addresses;
import dev.argus.config.IngestConf;
import dev.argus.embed.Embedder;
import dev.argus.knowledge.Chunk;
import dev.argus.knowledge.Document;
import dev.argus.knowledge.KnowledgeStore;
import dev.argus.knowledge.UpsertResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The ingestion pipeline, per document: parse, content hash, skip when the stored hash is equal, chunk at
 * sentence boundaries, embed the chunks in batches, write the document and all its chunks in one transaction,
 * then publish {@link Addresses#KNOWLEDGE_CHANGED}. Batches span documents (and groups of documents), so short
 * documents still fill the embedder's batches, and writes overlap the next batches' embedding (see
 * {@link IngestPipeline}); but each document is written on its own: a failure (parse, embed, store) leaves no
 * trace of that document and its outcome names it and the reason. Parsing and chunking run off the event loop.
 * The returned futures never fail.
 */
public final class IngestService {

  private final Vertx vertx;
  private final IngestConf conf;
  private final Embedder embedder;
  private final KnowledgeStore store;
  private final SentenceChunker chunker;
  private final String defaultNamespace;

  public IngestService(Vertx vertx, IngestConf conf, Embedder embedder, KnowledgeStore store) {
    this.vertx = vertx;
    this.conf = conf;
    this.embedder = embedder;
    this.store = store;
    this.chunker = SentenceChunker.from(conf);
    this.defaultNamespace = Document.DEFAULT_NAMESPACE;
  }

  public Future<DocumentOutcome> ingest(SourceDocument doc) {
    return ingest(List.of(doc)).map(list -> list.get(0));
  }

  /** Ingests documents; one outcome per document, in order. The future never fails. */
  public Future<List<DocumentOutcome>> ingest(List<SourceDocument> docs) {
    List<DocumentOutcome> outcomes = new ArrayList<>();
    return ingestAll(docs, outcomes::addAll, () -> false).map(cut -> outcomes);
  }

  /** {@link #ingestAll(List, ReplaceMode, Consumer, BooleanSupplier)} in {@link ReplaceMode#AUTO}. */
  public Future<Boolean> ingestAll(List<SourceDocument> docs, Consumer<List<DocumentOutcome>> listener,
                                   BooleanSupplier stopRequested) {
    return ingestAll(docs, ReplaceMode.AUTO, listener, stopRequested);
  }

  /**
   * Ingests a whole job's documents through the pipeline ({@link IngestPipeline}): the next documents are parsed,
   * checked and chunked, and their chunks embedded in full batches, while the documents already embedded are
   * written. {@code listener} receives the outcomes in document order, on the caller's context, a few at a time.
   * A stored document of the same id and other content is replaced only as {@code replace} allows (otherwise the
   * document fails and the stored one stays). Once {@code stopRequested} answers true, no new document is started:
   * documents whose embedding has begun are finished (written whole or not at all), every other one is reported
   * failed with reason "shutdown". The future (never failed) tells whether the run was cut short that way.
   */
  public Future<Boolean> ingestAll(List<SourceDocument> docs, ReplaceMode replace,
                                   Consumer<List<DocumentOutcome>> listener, BooleanSupplier stopRequested) {
    return new IngestPipeline(this, vertx.getOrCreateContext(), docs, replace, listener, stopRequested).run();
  }

  IngestConf conf() {
    return conf;
  }

  /** One document on its way through the pipeline; touched only on the pipeline's context. */
  static final class Work {
    final SourceDocument src;
    ParsedDocument doc;
    String hash;
    List<String> chunks;
    float[][] vectors;
    int missing;
    boolean started;
    DocumentOutcome outcome;

    Work(SourceDocument src) {
      this.src = src;
    }

    String label() {
      return doc != null ? doc.id() : src.label();
    }

    boolean done() {
      return outcome != null;
    }

    boolean embedded() {
      return vectors != null && missing == 0;
    }

    void fail(String reason) {
      if (outcome == null) {
        outcome = DocumentOutcome.failed(label(), reason);
      }
    }
  }

  /** Parses and hashes (blocking: runs on a worker). */
  List<Work> prepare(List<SourceDocument> docs) {
    List<Work> works = new ArrayList<>();
    for (SourceDocument src : docs) {
      Work w = new Work(src);
      try {
        w.doc = DocumentParsers.parse(src, defaultNamespace, conf.maxDocumentChars());
        w.hash = ContentHash.of(w.doc);
      } catch (RuntimeException e) {
        w.fail("parsing failed: " + reason(e));
      }
      works.add(w);
    }
    return works;
  }

  /** Chunks (blocking: runs on a worker); returns the chunks of each work, in order, empty for a done one. */
  List<List<String>> chunk(List<Work> works) {
    List<List<String>> out = new ArrayList<>();
    for (Work w : works) {
      out.add(w.done() ? List.of() : chunker.chunk(w.doc.text()));
    }
    return out;
  }

  /**
   * What to do with each document given the stored one of the same id: {@code UNCHANGED} (with the stored chunk
   * count) when the content hash is equal; a failed outcome when the id belongs to a document of another namespace,
   * or when {@code replace} does not allow replacing it; null when the document is to be ingested. The result maps
   * positions in {@code works} to outcomes; a failed read gives a failed outcome. Never fails.
   */
  Future<List<DocumentOutcome>> checkExisting(List<Work> works, ReplaceMode replace) {
    List<Future<DocumentOutcome>> checks = new ArrayList<>();
    for (Work w : works) {
      if (w.done()) {
        checks.add(Future.succeededFuture(null));
        continue;
      }
      String id = w.doc.id();
      checks.add(store.contentHash(id).compose(stored -> stored.isEmpty()
          ? Future.<DocumentOutcome>succeededFuture(null)
          : store.document(id).map(d -> d.map(existing -> existing(w, existing, stored.get(), replace)).orElse(null))
      ).recover(err -> Future.succeededFuture(DocumentOutcome.failed(id,
          "reading the stored version failed: " + reason(err)))));
    }
    return Future.join(checks).map(cf -> {
      List<DocumentOutcome> out = new ArrayList<>();
      for (int i = 0; i < checks.size(); i++) {
        out.add(checks.get(i).result());
      }
      return out;
    }).recover(err -> {
      List<DocumentOutcome> out = new ArrayList<>();
      for (Future<DocumentOutcome> c : checks) {
        out.add(c.succeeded() ? c.result() : null);
      }
      return Future.succeededFuture(out);
    });
  }

  private static DocumentOutcome existing(Work w, Document existing, String storedHash, ReplaceMode replace) {
    String id = w.doc.id();
    if (!existing.namespace().equals(w.doc.namespace())) {
      return DocumentOutcome.failed(id, "the id is taken by a document in namespace '" + existing.namespace()
          + "' (ids are unique across namespaces): choose another id, or delete that document first");
    }
    if (storedHash.equals(w.hash)) {
      return new DocumentOutcome(id, DocumentOutcome.Outcome.UNCHANGED, existing.chunkCount(), null);
    }
    if (!replace.allows(w.doc.explicitId())) {
      return DocumentOutcome.failed(id, "a document with this id already exists; it is replaced only when asked: "
          + "name the id explicitly, or send replace=true");
    }
    return null;
  }

  /** Embeds passages, failing (never throwing) when the embedder does, or returns the wrong number of vectors. */
  Future<List<float[]>> embed(List<String> texts) {
    Future<List<float[]>> call;
    try {
      call = embedder.embedPassages(texts);
    } catch (RuntimeException e) {
      call = Future.failedFuture(e);
    }
    return call.map(vectors -> {
      if (vectors == null || vectors.size() != texts.size()) {
        throw new IllegalStateException("the embedder returned " + (vectors == null ? 0 : vectors.size())
            + " vectors for " + texts.size() + " passages");
      }
      return vectors;
    });
  }

  /**
   * Writes one embedded document and all its chunks in one transaction (the store's atomic replace) and publishes
   * {@link Addresses#KNOWLEDGE_CHANGED}; the outcome (failed if the write failed). Never fails.
   */
  Future<DocumentOutcome> store(ParsedDocument d, String hash, List<String> texts, float[][] vectors) {
    List<Chunk> chunks = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i++) {
      chunks.add(new Chunk(d.id(), i, texts.size(), texts.get(i), vectors[i]));
    }
    Instant now = Instant.now();
    Document document = new Document(d.id(), d.namespace(), d.title(), d.source(), d.text(), d.metadata(), hash,
        chunks.size(), now, now);
    Future<UpsertResult> upsert;
    try {
      upsert = store.upsert(document, chunks);
    } catch (RuntimeException e) {
      upsert = Future.failedFuture(e);
    }
    return upsert.map(result -> {
      DocumentOutcome.Outcome outcome = switch (result.outcome()) {
        case CREATED -> DocumentOutcome.Outcome.CREATED;
        case REPLACED -> DocumentOutcome.Outcome.REPLACED;
        case UNCHANGED -> DocumentOutcome.Outcome.UNCHANGED;
      };
      if (outcome != DocumentOutcome.Outcome.UNCHANGED) {
        vertx.eventBus().publish(Addresses.KNOWLEDGE_CHANGED, new JsonObject().put("namespace", d.namespace())
            .put("documentId", d.id()).put("change", "upsert"));
      }
      return new DocumentOutcome(d.id(), outcome, result.chunks(), null);
    }).recover(err -> Future.succeededFuture(DocumentOutcome.failed(d.id(), "storing failed: " + reason(err))));
  }

  /**
   * The end (exclusive) of the next group of documents starting at {@code from}: at most {@code embedBatchSize}
   * documents and about {@code embedBatchSize} chunks' worth of content, at least one document.
   */
  public static int groupEnd(List<SourceDocument> docs, int from, IngestConf conf) {
    long maxChars = (long) conf.embedBatchSize() * conf.chunkTargetChars();
    int to = from;
    long chars = 0;
    while (to < docs.size() && to - from < conf.embedBatchSize()
        && (to == from || chars + docs.get(to).size() <= maxChars)) {
      chars += docs.get(to).size();
      to++;
    }
    return to;
  }

  /**
   * The passages the pipeline would embed for {@code docs}, in order: each document parsed, chunked and every chunk
   * prefixed with its title exactly as {@link #ingest(List)} does (documents that fail to parse are left out).
   * For benchmarks that compare raw embedding with ingestion.
   */
  public static List<String> embeddingTexts(List<SourceDocument> docs, IngestConf conf) {
    SentenceChunker chunker = SentenceChunker.from(conf);
    List<String> texts = new ArrayList<>();
    for (SourceDocument src : docs) {
      ParsedDocument doc;
      try {
        doc = DocumentParsers.parse(src, Document.DEFAULT_NAMESPACE, conf.maxDocumentChars());
      } catch (RuntimeException e) {
        continue;
      }
      for (String chunk : chunker.chunk(doc.text())) {
        texts.add(passage(doc.title(), chunk));
      }
    }
    return texts;
  }

  /** What the embedder sees for a chunk: the title first (unless the chunk already starts with it), then the text. */
  static String passage(String title, String chunk) {
    return title == null || title.isBlank() || chunk.startsWith(title) ? chunk : title + "\n" + chunk;
  }

  static String reason(Throwable err) {
    Throwable e = err;
    while (e.getCause() != null && (e.getMessage() == null || e instanceof java.util.concurrent.CompletionException)) {
      e = e.getCause();
    }
    String msg = e.getMessage();
    return msg == null || msg.isBlank() ? e.getClass().getSimpleName() : msg;
  }
}
