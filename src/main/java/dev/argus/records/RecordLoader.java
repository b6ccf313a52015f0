package dev.argus.records;

import dev.argus.bus.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * Loads JSON Lines into the {@link RecordStore} batch by batch: a worker thread reads and validates the next batch while
 * the current one is written (one transaction per batch); after each commit the graph is told
 * ({@link Addresses#GRAPH_RECORDS_APPLY}, at most {@link #GRAPH_SLICE} records per message; no graph deployed means
 * nothing to do), {@link Addresses#RECORDS_CHANGED} is published, and changed cases are sent to ingestion as knowledge
 * documents ({@link CaseDocuments}). A bad line is reported with its number, field and reason and nothing of it is
 * stored; the rest of the batch goes on.
 */
public final class RecordLoader {

  private static final Logger LOG = Logger.getLogger(RecordLoader.class.getName());
  static final int GRAPH_SLICE = 1000;

  private final Vertx vertx;
  private final RecordStore store;
  private final RecordValidator validator;
  private final int batchSize;
  private final long graphTimeoutMs;
  private final CaseDocuments caseDocuments;
  private final AtomicBoolean graphAbsentLogged = new AtomicBoolean();

  /** {@code caseDocuments} null: cases are not sent to the knowledge base. */
  public RecordLoader(Vertx vertx, RecordStore store, RecordValidator validator, int batchSize, long graphTimeoutMs,
                      CaseDocuments caseDocuments) {
    this.vertx = vertx;
    this.store = store;
    this.validator = validator;
    this.batchSize = batchSize;
    this.graphTimeoutMs = graphTimeoutMs;
    this.caseDocuments = caseDocuments;
  }

  private record Parsed(long first, long last, List<DomainRecord> records, List<LineError> errors, boolean end) {
  }

  /**
   * Loads every line of {@code source}, calling {@code onBatch} on the caller's context after each committed batch;
   * completes with {@code true} when {@code stop} cut the load short (between batches). A failed batch write fails
   * the future (the batches before it stay committed).
   */
  public Future<Boolean> load(LineSource source, Consumer<BatchResult> onBatch, BooleanSupplier stop) {
    Promise<Boolean> done = Promise.promise();
    step(parse(source), source, onBatch, stop, done);
    return done.future();
  }

  /**
   * One batch: commit it while the next one is read and validated, then go on. Written with callbacks rather than a
   * chain of composed futures, so that a finished batch (and the next one's records) is not kept reachable until the
   * whole load ends — a million-record load runs in constant memory.
   */
  private void step(Future<Parsed> current, LineSource source, Consumer<BatchResult> onBatch, BooleanSupplier stop,
                    Promise<Boolean> done) {
    current.onFailure(done::tryFail).onSuccess(p -> {
      if (p.end() && p.records().isEmpty() && p.errors().isEmpty()) {
        done.tryComplete(false);
        return;
      }
      Future<Parsed> next = p.end() ? Future.succeededFuture(new Parsed(p.last() + 1, p.last(), List.of(), List.of(),
          true)) : parse(source);
      commit(p).onFailure(err -> next.onComplete(ignored -> done.tryFail(err))).onSuccess(result -> {
        try {
          onBatch.accept(result);
        } catch (RuntimeException e) {
          next.onComplete(ignored -> done.tryFail(e));
          return;
        }
        if (stop.getAsBoolean()) {
          next.onComplete(ignored -> done.tryComplete(true));
        } else {
          step(next, source, onBatch, stop, done);
        }
      });
    });
  }

  private Future<Parsed> parse(LineSource source) {
    return vertx.executeBlocking(() -> {
      LineSource.Slice slice = source.next(batchSize);
      List<DomainRecord> records = new ArrayList<>(slice.lines().size());
      List<LineError> errors = new ArrayList<>();
      long n = slice.first();
      for (String text : slice.lines()) {
        RecordValidator.Line line = validator.line(n++, text);
        if (line.record() != null) {
          records.add(line.record());
        } else if (line.error() != null) {
          errors.add(line.error());
        }
      }
      return new Parsed(slice.first(), n - 1, records, errors, slice.lines().size() < batchSize);
    }, false);
  }

  private Future<BatchResult> commit(Parsed p) {
    return store.upsert(p.records()).compose(counts -> applyToGraph(RecordsChanged.UPSERT,
        counts.changed().stream().map(DomainRecord::body).toList()).map(graph -> {
          announce(RecordsChanged.UPSERT, counts.changed().stream().map(r -> r.kind().wire()).toList(),
              counts.changed().stream().map(DomainRecord::id).toList());
          if (caseDocuments != null) {
            caseDocuments.submit(counts.changed());
          }
          return new BatchResult(p.first(), p.last(), counts.created(), counts.updated(), counts.unchanged(),
              p.errors(), graph.status, graph.nodes, graph.edges, graph.error);
        }));
  }

  /** Deletes records by id: store, then graph, then the change event; the reply lists the deleted bodies. */
  public Future<List<JsonObject>> delete(List<String> ids) {
    return store.delete(ids).compose(deleted -> {
      if (deleted.isEmpty()) {
        return Future.succeededFuture(deleted);
      }
      List<JsonObject> refs = deleted.stream().map(b -> new JsonObject().put("kind", b.getString("kind"))
          .put("id", b.getString("id"))).toList();
      return applyToGraph(RecordsChanged.DELETE, refs).map(graph -> {
        if (GRAPH_FAILED.equals(graph.status)) {
          LOG.warning("graph did not take the deletion of " + ids + ": " + graph.error);
        }
        announce(RecordsChanged.DELETE, refs.stream().map(r -> r.getString("kind")).toList(),
            refs.stream().map(r -> r.getString("id")).toList());
        return deleted;
      });
    });
  }

  private void announce(String change, List<String> kinds, List<String> ids) {
    if (!ids.isEmpty()) {
      Set<String> distinct = new LinkedHashSet<>(kinds);
      vertx.eventBus().publish(Addresses.RECORDS_CHANGED, new RecordsChanged(change, List.copyOf(distinct), ids)
          .toJson());
    }
  }

  private static final String GRAPH_FAILED = BatchResult.GRAPH_FAILED;

  private static final class GraphOutcome {
    String status = BatchResult.GRAPH_APPLIED;
    long nodes;
    long edges;
    String error;
  }

  /** Sends the records to the graph in slices, one after the other; never fails (the outcome says what happened). */
  private Future<GraphOutcome> applyToGraph(String change, List<JsonObject> records) {
    GraphOutcome outcome = new GraphOutcome();
    if (records.isEmpty()) {
      return Future.succeededFuture(outcome);
    }
    Future<Void> chain = Future.succeededFuture();
    for (int from = 0; from < records.size(); from += GRAPH_SLICE) {
      JsonArray slice = new JsonArray(new ArrayList<>(records.subList(from, Math.min(records.size(), from + GRAPH_SLICE))));
      JsonObject body = new JsonObject().put("change", change).put("records", slice);
      chain = chain.compose(v -> {
        if (!BatchResult.GRAPH_APPLIED.equals(outcome.status)) {
          return Future.succeededFuture();
        }
        return vertx.eventBus().<JsonObject>request(Addresses.GRAPH_RECORDS_APPLY, body,
            new DeliveryOptions().setSendTimeout(graphTimeoutMs)).map(reply -> {
              outcome.nodes += reply.body().getLong("nodes", 0L);
              outcome.edges += reply.body().getLong("edges", 0L);
              return null;
            });
      });
    }
    return chain.map(outcome).recover(err -> {
      if (err instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS) {
        if (graphAbsentLogged.compareAndSet(false, true)) {
          LOG.info("no entity graph is deployed (" + Addresses.GRAPH_RECORDS_APPLY + "): records are stored without it");
        }
        outcome.status = BatchResult.GRAPH_SKIPPED;
      } else {
        outcome.status = BatchResult.GRAPH_FAILED;
        outcome.error = String.valueOf(err.getMessage());
      }
      return Future.succeededFuture(outcome);
    });
  }
}
