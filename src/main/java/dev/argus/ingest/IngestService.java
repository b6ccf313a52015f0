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
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The ingestion pipeline, per document: parse, content hash, skip when the stored hash is equal, chunk at
 * sentence boundaries, embed the chunks in batches, write the document and all its chunks in one transaction,
 * then publish {@link Addresses#KNOWLEDGE_CHANGED}. A group of documents is embedded together (batches span
 * documents, so short documents still fill the embedder's batches) but each document is written on its own:
 * a failure (parse, embed, store) leaves no trace of that document and its outcome names it and the reason.
 * Parsing and chunking run off the event loop. The returned future never fails.
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

  /** Ingests documents as one group; one outcome per document, in order. */
  public Future<List<DocumentOutcome>> ingest(List<SourceDocument> docs) {
    return vertx.executeBlocking(() -> prepare(docs), false)
        .compose(this::run)
        .recover(err -> {
          List<DocumentOutcome> failed = new ArrayList<>();
          for (SourceDocument d : docs) {
            failed.add(DocumentOutcome.failed(d.label(), reason(err)));
          }
          return Future.succeededFuture(failed);
        });
  }

  /** One document on its way through the pipeline. */
  private static final class Work {
    final SourceDocument src;
    ParsedDocument doc;
    String hash;
    List<String> chunks;
    List<float[]> vectors;
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

    void fail(String reason) {
      if (outcome == null) {
        outcome = DocumentOutcome.failed(label(), reason);
      }
    }
  }

  private List<Work> prepare(List<SourceDocument> docs) {
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

  /** Runs the group in runs of documents with distinct ids, so a repeated id sees its predecessor's write. */
  private Future<List<DocumentOutcome>> run(List<Work> works) {
    List<List<Work>> runs = new ArrayList<>();
    List<Work> current = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (Work w : works) {
      if (w.doc != null && !ids.add(w.doc.id())) {
        runs.add(current);
        current = new ArrayList<>();
        ids.clear();
        ids.add(w.doc.id());
      }
      current.add(w);
    }
    runs.add(current);
    Future<Void> chain = Future.succeededFuture();
    for (List<Work> r : runs) {
      chain = chain.compose(v -> runDistinct(r));
    }
    return chain.map(v -> works.stream().map(w -> w.outcome).toList());
  }

  private Future<Void> runDistinct(List<Work> works) {
    List<Work> live = works.stream().filter(w -> !w.done()).toList();
    return checkUnchanged(live)
        .compose(v -> vertx.executeBlocking(() -> {
          for (Work w : live) {
            if (!w.done()) {
              w.chunks = chunker.chunk(w.doc.text());
              if (w.chunks.isEmpty()) {
                w.fail("the document has no text to chunk");
              }
            }
          }
          return null;
        }, false))
        .compose(v -> embed(live))
        .compose(v -> store(live, 0));
  }

  private Future<Void> checkUnchanged(List<Work> works) {
    List<Future<Void>> checks = new ArrayList<>();
    for (Work w : works) {
      checks.add(store.contentHash(w.doc.id()).compose(stored -> {
        if (stored.isPresent() && stored.get().equals(w.hash)) {
          return store.document(w.doc.id()).map(d -> {
            w.outcome = new DocumentOutcome(w.doc.id(), DocumentOutcome.Outcome.UNCHANGED,
                d.map(Document::chunkCount).orElse(0), null);
            return null;
          });
        }
        return Future.succeededFuture();
      }).recover(err -> {
        w.fail("reading the stored version failed: " + reason(err));
        return Future.succeededFuture();
      }).mapEmpty());
    }
    return Future.join(checks).<Void>mapEmpty().recover(err -> Future.succeededFuture());
  }

  /** Embeds every live document's chunks in batches of {@code ingest.embedBatchSize}, batches spanning documents. */
  private Future<Void> embed(List<Work> works) {
    List<Work> owners = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    for (Work w : works) {
      if (!w.done()) {
        w.vectors = new ArrayList<>(w.chunks.size());
        for (String chunk : w.chunks) {
          owners.add(w);
          texts.add(passage(w.doc.title(), chunk));
        }
      }
    }
    return embedFrom(owners, texts, 0);
  }

  private Future<Void> embedFrom(List<Work> owners, List<String> texts, int from) {
    int start = from;
    while (start < owners.size() && owners.get(start).done()) {
      start++;
    }
    if (start >= owners.size()) {
      return Future.succeededFuture();
    }
    List<Work> batchOwners = new ArrayList<>();
    List<String> batch = new ArrayList<>();
    int i = start;
    for (; i < owners.size() && batch.size() < conf.embedBatchSize(); i++) {
      if (!owners.get(i).done()) {
        batchOwners.add(owners.get(i));
        batch.add(texts.get(i));
      }
    }
    int next = i;
    Future<List<float[]>> call;
    try {
      call = embedder.embedPassages(batch);
    } catch (RuntimeException e) {
      call = Future.failedFuture(e);
    }
    return call.map(vectors -> {
      if (vectors == null || vectors.size() != batch.size()) {
        throw new IllegalStateException("the embedder returned " + (vectors == null ? 0 : vectors.size())
            + " vectors for " + batch.size() + " passages");
      }
      for (int k = 0; k < vectors.size(); k++) {
        batchOwners.get(k).vectors.add(vectors.get(k));
      }
      return (Void) null;
    }).recover(err -> separately(batchOwners, batch, err)).compose(v -> embedFrom(owners, texts, next));
  }

  /**
   * A failed batch that spans several documents is retried document by document, so that one document's bad
   * input does not fail its neighbours; a single document's failure is final.
   */
  private Future<Void> separately(List<Work> batchOwners, List<String> batch, Throwable err) {
    List<Work> distinct = batchOwners.stream().distinct().toList();
    if (distinct.size() == 1) {
      distinct.get(0).fail("embedding failed: " + reason(err));
      return Future.succeededFuture();
    }
    Future<Void> chain = Future.succeededFuture();
    for (Work w : distinct) {
      List<String> own = new ArrayList<>();
      for (int k = 0; k < batch.size(); k++) {
        if (batchOwners.get(k) == w) {
          own.add(batch.get(k));
        }
      }
      chain = chain.compose(v -> {
        Future<List<float[]>> call;
        try {
          call = embedder.embedPassages(own);
        } catch (RuntimeException e) {
          call = Future.failedFuture(e);
        }
        return call.map(vectors -> {
          if (vectors == null || vectors.size() != own.size()) {
            throw new IllegalStateException("the embedder returned " + (vectors == null ? 0 : vectors.size())
                + " vectors for " + own.size() + " passages");
          }
          w.vectors.addAll(vectors);
          return (Void) null;
        }).recover(e -> {
          w.fail("embedding failed: " + reason(e));
          return Future.succeededFuture();
        });
      });
    }
    return chain;
  }

  /** Writes the documents one by one (SQLite has one writer; one transaction per document). */
  private Future<Void> store(List<Work> works, int index) {
    if (index >= works.size()) {
      return Future.succeededFuture();
    }
    Work w = works.get(index);
    if (w.done()) {
      return store(works, index + 1);
    }
    ParsedDocument d = w.doc;
    List<Chunk> chunks = new ArrayList<>(w.chunks.size());
    for (int i = 0; i < w.chunks.size(); i++) {
      chunks.add(new Chunk(d.id(), i, w.chunks.size(), w.chunks.get(i), w.vectors.get(i)));
    }
    Instant now = Instant.now();
    Document document = new Document(d.id(), d.namespace(), d.title(), d.source(), d.text(), d.metadata(), w.hash,
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
      w.outcome = new DocumentOutcome(d.id(), outcome, result.chunks(), null);
      if (outcome != DocumentOutcome.Outcome.UNCHANGED) {
        vertx.eventBus().publish(Addresses.KNOWLEDGE_CHANGED, new JsonObject().put("namespace", d.namespace())
            .put("documentId", d.id()).put("change", "upsert"));
      }
      return (Void) null;
    }).recover(err -> {
      w.fail("storing failed: " + reason(err));
      return Future.succeededFuture();
    }).compose(v -> store(works, index + 1));
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
