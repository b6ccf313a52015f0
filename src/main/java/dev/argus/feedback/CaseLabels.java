package dev.argus.feedback;

import dev.argus.bus.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * Labels from closed cases: after {@code argus.records.changed} upserted cases, each case that is closed with outcome
 * {@code fraud} or {@code legit} labels the unlabelled decisions about each of its subjects ({@code subjectIds}): a
 * REJECT/BLOCK is right about fraud, an APPROVE/ALLOW about a legit subject; a REVIEW stays unlabelled. Analysts' labels
 * are never overwritten. Batches with more than {@value #MAX_IDS} ids, and any batch while no decision is waiting for
 * a label, are skipped (a bulk load before any decision).
 */
final class CaseLabels {

  private static final Logger LOG = Logger.getLogger(CaseLabels.class.getName());
  static final int MAX_IDS = 1000;

  private final Vertx vertx;
  private final FeedbackStore store;
  private final FeedbackService service;
  private final long timeoutMs;

  CaseLabels(Vertx vertx, FeedbackStore store, FeedbackService service, long timeoutMs) {
    this.vertx = vertx;
    this.store = store;
    this.service = service;
    this.timeoutMs = timeoutMs;
  }

  /** Handles one {@code RecordsChanged} body; completes with the number of decisions labelled. */
  Future<Integer> onRecordsChanged(JsonObject change) {
    JsonArray kinds = change.getJsonArray("kinds", new JsonArray());
    JsonArray ids = change.getJsonArray("ids", new JsonArray());
    if (!"upsert".equals(change.getString("change")) || !kinds.contains("case") || ids.size() > MAX_IDS) {
      return Future.succeededFuture(0);
    }
    return store.queue(null, 1).compose(waiting -> {
      if (waiting.isEmpty()) {
        return Future.succeededFuture(0);
      }
      Future<Integer> chain = Future.succeededFuture(0);
      for (Object id : ids) {
        chain = chain.compose(n -> label(String.valueOf(id)).map(m -> n + m));
      }
      return chain;
    });
  }

  private Future<Integer> label(String recordId) {
    return vertx.eventBus().<JsonObject>request(Addresses.RECORDS_GET, new JsonObject().put("id", recordId),
            new DeliveryOptions().setSendTimeout(timeoutMs))
        .map(msg -> msg.body())
        .compose(record -> {
          String outcome = record.getString("outcome");
          if (!"case".equals(record.getString("kind")) || record.getValue("closedAt") == null
              || !("fraud".equals(outcome) || "legit".equals(outcome))) {
            return Future.succeededFuture(0);
          }
          boolean fraud = "fraud".equals(outcome);
          List<Future<Integer>> perSubject = new ArrayList<>();
          for (Object subject : record.getJsonArray("subjectIds", new JsonArray())) {
            perSubject.add(store.unlabelledAbout(String.valueOf(subject), 100).compose(decisions -> {
              Future<Integer> chain = Future.succeededFuture(0);
              for (DecisionRef d : decisions) {
                chain = chain.compose(n -> service.labelFromCase(d, recordId, fraud).map(done -> done ? n + 1 : n));
              }
              return chain;
            }));
          }
          return Future.all(perSubject).map(all -> {
            int n = 0;
            for (int i = 0; i < all.size(); i++) {
              n += all.<Integer>resultAt(i);
            }
            return n;
          });
        })
        .recover(err -> {
          LOG.fine("record " + recordId + " not used for case labels: " + err.getMessage());
          return Future.succeededFuture(0);
        });
  }
}
