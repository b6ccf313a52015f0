package dev.argus.ingest;

import dev.argus.ingest.IngestService.Work;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One run of {@link IngestService#ingestAll}: three stages that overlap, each with at most one step in flight.
 * <ol>
 *   <li>prepare: the next group of documents ({@link IngestService#groupEnd}) is parsed, checked against the stored
 *   content hash and chunked (on workers), and its chunks join the embedding queue; it runs ahead while fewer than
 *   two batches of chunks are queued;</li>
 *   <li>embed: one {@code embedPassages} call at a time over the next {@code ingest.embedBatchSize} queued chunks,
 *   across document and group boundaries (a short batch only when nothing more is being prepared), so the embedder
 *   sees full batches back to back; a failed batch spanning several documents is retried document by document;</li>
 *   <li>store: documents, in order, as soon as all their chunks have vectors, one transaction each, while the next
 *   batches are being embedded.</li>
 * </ol>
 * A document whose id is still on its way through the pipeline is not prepared before that earlier version is
 * written, so the dedupe check sees it. All state lives on one context; every future's result hops back to it.
 */
final class IngestPipeline {

  private record Piece(Work owner, int index, String text) {
  }

  private final IngestService service;
  private final Context ctx;
  private final List<SourceDocument> docs;
  private final Consumer<List<DocumentOutcome>> listener;
  private final BooleanSupplier stopRequested;
  private final int batchSize;
  private final Promise<Boolean> done = Promise.promise();

  /** First document not yet taken into the pipeline. */
  private int next;
  /** Taken documents whose outcome is not reported yet, in document order. */
  private final Deque<Work> pending = new ArrayDeque<>();
  private final Set<String> pendingIds = new HashSet<>();
  /** Chunks waiting for the embedder, in document order. */
  private final Deque<Piece> queue = new ArrayDeque<>();
  /** A document id the next group waits for (its earlier version is still in the pipeline). */
  private String blockedOn;
  private boolean preparing;
  private final ReplaceMode replace;
  private boolean embedding;
  private boolean storing;
  private boolean stopped;
  private boolean cutShort;

  IngestPipeline(IngestService service, Context ctx, List<SourceDocument> docs, ReplaceMode replace,
                 Consumer<List<DocumentOutcome>> listener, BooleanSupplier stopRequested) {
    this.service = service;
    this.replace = replace;
    this.ctx = ctx;
    this.docs = List.copyOf(docs);
    this.listener = listener;
    this.stopRequested = stopRequested;
    this.batchSize = service.conf().embedBatchSize();
  }

  Future<Boolean> run() {
    ctx.runOnContext(v -> pump());
    return done.future();
  }

  /** Advances every stage that can advance; called on the context after every step. */
  private void pump() {
    if (done.future().isComplete()) {
      return;
    }
    try {
      if (!stopped && stopRequested.getAsBoolean()) {
        stop();
      }
      storeNext();
      prepareNext();
      embedNext();
      finishIfDone();
    } catch (RuntimeException e) {
      abort(e);
    }
  }

  // ---- prepare

  private void prepareNext() {
    if (preparing || stopped || next >= docs.size() || queue.size() >= 2 * batchSize) {
      return;
    }
    if (blockedOn != null) {
      if (pendingIds.contains(blockedOn)) {
        return;
      }
      blockedOn = null;
    }
    int from = next;
    int to = IngestService.groupEnd(docs, from, service.conf());
    preparing = true;
    onContext(ctx.executeBlocking(() -> service.prepare(docs.subList(from, to)), false)).onComplete(ar -> {
      List<Work> works;
      if (ar.succeeded()) {
        works = ar.result();
      } else {
        works = new ArrayList<>();
        for (SourceDocument d : docs.subList(from, to)) {
          Work w = new Work(d);
          w.fail("parsing failed: " + IngestService.reason(ar.cause()));
          works.add(w);
        }
      }
      take(from, works);
    });
  }

  /** Takes the longest prefix of the parsed group whose ids are distinct and not in the pipeline already. */
  private void take(int from, List<Work> works) {
    List<Work> taken = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Work w : works) {
      if (w.doc != null && (pendingIds.contains(w.doc.id()) || !seen.add(w.doc.id()))) {
        blockedOn = w.doc.id();
        break;
      }
      taken.add(w);
    }
    next = from + taken.size();
    for (Work w : taken) {
      pending.add(w);
      if (w.doc != null) {
        pendingIds.add(w.doc.id());
      }
    }
    List<Work> live = taken.stream().filter(w -> !w.done()).toList();
    if (live.isEmpty()) {
      preparing = false;
      pump();
      return;
    }
    onContext(service.checkExisting(live, replace)).compose(outcomes -> {
      for (int i = 0; i < live.size(); i++) {
        if (outcomes.get(i) != null && !live.get(i).done()) {
          live.get(i).outcome = outcomes.get(i);
        }
      }
      return onContext(ctx.executeBlocking(() -> service.chunk(live), false));
    }).onComplete(ar -> {
      for (int i = 0; i < live.size(); i++) {
        Work w = live.get(i);
        if (w.done()) {
          continue;
        }
        if (ar.failed()) {
          w.fail("chunking failed: " + IngestService.reason(ar.cause()));
        } else if (stopped) {
          w.fail("shutdown");
          cutShort = true;
        } else {
          w.chunks = ar.result().get(i);
          if (w.chunks.isEmpty()) {
            w.fail("the document has no text to chunk");
            continue;
          }
          w.vectors = new float[w.chunks.size()][];
          w.missing = w.chunks.size();
          for (int k = 0; k < w.chunks.size(); k++) {
            queue.add(new Piece(w, k, IngestService.passage(w.doc.title(), w.chunks.get(k))));
          }
        }
      }
      preparing = false;
      pump();
    });
  }

  // ---- embed

  private void embedNext() {
    if (embedding) {
      return;
    }
    queue.removeIf(p -> p.owner().done());
    if (queue.isEmpty() || (queue.size() < batchSize && preparing)) {
      return; // a short batch only when no more chunks are on their way
    }
    List<Piece> batch = new ArrayList<>(batchSize);
    while (batch.size() < batchSize && !queue.isEmpty()) {
      Piece p = queue.poll();
      p.owner().started = true;
      batch.add(p);
    }
    embedding = true;
    onContext(service.embed(batch.stream().map(Piece::text).toList()))
        .compose(vectors -> {
          assign(batch, vectors);
          return Future.<Void>succeededFuture();
        }, err -> separately(batch, err))
        .onComplete(ar -> {
          embedding = false;
          pump();
        });
  }

  private static void assign(List<Piece> pieces, List<float[]> vectors) {
    for (int k = 0; k < pieces.size(); k++) {
      Piece p = pieces.get(k);
      if (!p.owner().done() && p.owner().vectors[p.index()] == null) {
        p.owner().vectors[p.index()] = vectors.get(k);
        p.owner().missing--;
      }
    }
  }

  /**
   * A failed batch that spans several documents is retried document by document, so that one document's bad input
   * does not fail its neighbours; a single document's failure is final.
   */
  private Future<Void> separately(List<Piece> batch, Throwable err) {
    List<Work> owners = batch.stream().map(Piece::owner).filter(w -> !w.done()).distinct().toList();
    if (owners.size() == 1) {
      owners.get(0).fail("embedding failed: " + IngestService.reason(err));
      return Future.succeededFuture();
    }
    Future<Void> chain = Future.succeededFuture();
    for (Work w : owners) {
      List<Piece> own = batch.stream().filter(p -> p.owner() == w).toList();
      chain = chain.compose(v -> onContext(service.embed(own.stream().map(Piece::text).toList()))
          .map(vectors -> {
            assign(own, vectors);
            return (Void) null;
          })
          .recover(e -> {
            w.fail("embedding failed: " + IngestService.reason(e));
            return Future.succeededFuture();
          }));
    }
    return chain;
  }

  // ---- store

  private void storeNext() {
    if (storing) {
      return;
    }
    List<DocumentOutcome> reported = new ArrayList<>();
    while (!pending.isEmpty()) {
      Work head = pending.peek();
      if (head.done()) {
        pending.poll();
        if (head.doc != null) {
          pendingIds.remove(head.doc.id());
        }
        reported.add(head.outcome);
        continue;
      }
      if (head.embedded()) {
        storing = true;
        onContext(service.store(head.doc, head.hash, head.chunks, head.vectors)).onComplete(ar -> {
          head.outcome = ar.succeeded() ? ar.result()
              : DocumentOutcome.failed(head.label(), "storing failed: " + IngestService.reason(ar.cause()));
          head.vectors = null; // the store has them now
          storing = false;
          pump();
        });
      }
      break;
    }
    if (!reported.isEmpty()) {
      listener.accept(reported);
    }
  }

  // ---- stop, finish

  /** No new document starts: the ones queued for embedding that have not started are given up. */
  private void stop() {
    stopped = true;
    for (Piece p : queue) {
      if (!p.owner().started) {
        p.owner().fail("shutdown");
        cutShort = true;
      }
    }
  }

  private void finishIfDone() {
    if (preparing || embedding || storing || !pending.isEmpty() || (next < docs.size() && !stopped)) {
      return;
    }
    if (next < docs.size()) {
      List<DocumentOutcome> rest = new ArrayList<>();
      for (SourceDocument d : docs.subList(next, docs.size())) {
        rest.add(DocumentOutcome.failed(d.label(), "shutdown"));
      }
      next = docs.size();
      cutShort = true;
      listener.accept(rest);
    }
    done.tryComplete(cutShort);
  }

  /** A bug in the pipeline itself: everything not yet reported fails, and the run ends. */
  private void abort(RuntimeException e) {
    List<DocumentOutcome> rest = new ArrayList<>();
    for (Work w : pending) {
      w.fail("ingestion failed: " + IngestService.reason(e));
      rest.add(w.outcome);
    }
    pending.clear();
    for (SourceDocument d : docs.subList(next, docs.size())) {
      rest.add(DocumentOutcome.failed(d.label(), "ingestion failed: " + IngestService.reason(e)));
    }
    next = docs.size();
    try {
      listener.accept(rest);
    } finally {
      done.tryComplete(true);
    }
  }

  /** The future's result, delivered on this pipeline's context. */
  private <T> Future<T> onContext(Future<T> f) {
    Promise<T> p = Promise.promise();
    f.onComplete(ar -> ctx.runOnContext(v -> p.handle(ar)));
    return p.future();
  }
}
