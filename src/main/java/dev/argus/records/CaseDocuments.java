package dev.argus.records;

import dev.argus.bus.Addresses;
import dev.argus.ingest.Format;
import dev.argus.ingest.IngestRequest;
import dev.argus.ingest.SourceDocument;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * Case summaries as knowledge-base documents: every created or changed {@code case} record is submitted to ingestion
 * over the bus ({@link Addresses#INGEST_SUBMIT}) as document {@code case-<id>} (plain text: outcome, dates, subjects,
 * summary; metadata {@code category: case, caseId, outcome, subjects, date}), so retrieval and the graph's document
 * extraction see them. Submission does not wait for the ingestion job; a missing ingestion service is logged once.
 */
public final class CaseDocuments {

  private static final Logger LOG = Logger.getLogger(CaseDocuments.class.getName());

  private final Vertx vertx;
  private final String namespace;
  private final boolean waitForJobs;
  private final AtomicBoolean absentLogged = new AtomicBoolean();
  private final List<Future<?>> pending = new ArrayList<>();

  /** {@code waitForJobs}: keep each ingestion job's completion so that {@link #drained()} can wait for them (CLI). */
  public CaseDocuments(Vertx vertx, String namespace, boolean waitForJobs) {
    this.vertx = vertx;
    this.namespace = namespace;
    this.waitForJobs = waitForJobs;
  }

  /** Completes when every submitted ingestion job has finished (only tracked with {@code waitForJobs}). */
  public synchronized Future<Void> drained() {
    return Future.join(List.copyOf(pending)).mapEmpty();
  }

  public void submit(List<DomainRecord> changed) {
    List<SourceDocument> docs = new ArrayList<>();
    for (DomainRecord r : changed) {
      if (r.kind() == RecordKind.CASE) {
        docs.add(document(r.body(), namespace));
      }
    }
    if (docs.isEmpty()) {
      return;
    }
    Future<?> job = vertx.eventBus().request(Addresses.INGEST_SUBMIT, new IngestRequest(docs, waitForJobs).toJson(),
        new DeliveryOptions().setSendTimeout(waitForJobs ? 24 * 3_600_000L : 30_000)).onFailure(err -> {
      if (err instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS) {
        if (absentLogged.compareAndSet(false, true)) {
          LOG.info("no ingestion service is deployed: case summaries are not added to the knowledge base");
        }
      } else {
        LOG.warning("case summaries were not submitted to ingestion: " + err.getMessage());
      }
    });
    if (waitForJobs) {
      synchronized (this) {
        pending.add(job);
      }
    }
  }

  /** The knowledge-base document of one stored case. */
  public static SourceDocument document(JsonObject kase, String namespace) {
    String id = kase.getString("id");
    String outcome = kase.getString("outcome");
    JsonArray subjects = kase.getJsonArray("subjectIds", new JsonArray());
    String opened = kase.getString("openedAt");
    String closed = kase.getString("closedAt");
    String text = "Case " + id + ": outcome " + outcome + ", opened " + opened
        + (closed == null ? "" : ", closed " + closed) + ". Subjects: "
        + String.join(", ", subjects.stream().map(String::valueOf).toList()) + ".\n\n" + kase.getString("summary", "");
    JsonObject metadata = new JsonObject().put("category", "case").put("caseId", id).put("outcome", outcome)
        .put("subjects", subjects.copy()).put("date", opened.length() >= 10 ? opened.substring(0, 10) : opened);
    return new SourceDocument("case-" + id, "Case " + id + " (" + outcome + ")", text, Format.TEXT,
        "records:case:" + id, namespace, metadata, "case " + id, false);
  }
}
