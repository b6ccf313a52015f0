package dev.argus.decide;

import dev.argus.bus.Addresses;
import dev.argus.bus.BusFailures;
import dev.argus.bus.InRun;
import dev.argus.common.ApiException;
import dev.argus.config.DecideConf;
import dev.argus.decide.model.DecisionProfile;
import dev.argus.decide.phases.DecisionContext;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Checks a decision request and finds its subject over the bus ({@code argus.records.*}): a {@code sellerId} /
 * {@code transactionId} already loaded, or the record inline — validated and loaded exactly like a record sent to
 * {@code POST /api/records} (a bad field is a 400 naming it; nothing is decided). A transaction brings its seller,
 * amount and currency.
 */
public final class SubjectResolver {

  static final String ID = "[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}";

  private final Vertx vertx;
  private final DecideConf conf;

  public SubjectResolver(Vertx vertx, DecideConf conf) {
    this.vertx = vertx;
    this.conf = conf;
  }

  private Future<JsonObject> request(String address, JsonObject body) {
    return vertx.eventBus().<JsonObject>request(address, body, InRun.delivery(conf.recordsTimeoutMs()))
        .map(m -> m.body()).recover(err -> Future.failedFuture(BusFailures.toApi(err)));
  }

  /** Fills the context's subject fields; fails 400/404 with {@code {error, code}} on a bad or unknown subject. */
  public Future<Void> resolve(DecisionContext ctx, JsonObject req) {
    String asOf = req.getValue("asOf") == null ? null : String.valueOf(req.getValue("asOf"));
    if (asOf != null) {
      try {
        Instant.parse(asOf);
      } catch (DateTimeParseException e) {
        return Future.failedFuture(ApiException.badRequest("invalid_field", "field 'asOf' must be an ISO-8601 instant"));
      }
    }
    ctx.asOf = asOf;
    boolean onboarding = ctx.profile == DecisionProfile.SELLER_ONBOARDING;
    String idField = onboarding ? "sellerId" : "transactionId";
    String recordField = onboarding ? "seller" : "transaction";
    Object id = req.getValue(idField);
    Object inline = req.getValue(recordField);
    if ((id == null) == (inline == null)) {
      return Future.failedFuture(ApiException.badRequest("missing_subject", "give exactly one of '" + idField
          + "' or '" + recordField + "'"));
    }
    Future<String> subject;
    if (id != null) {
      if (!(id instanceof String s) || !s.matches(ID)) {
        return Future.failedFuture(ApiException.badRequest("invalid_field", "field '" + idField
            + "' must be an id of 1-128 characters [A-Za-z0-9._:@-]"));
      }
      subject = Future.succeededFuture(s);
    } else {
      if (!(inline instanceof JsonObject record)) {
        return Future.failedFuture(ApiException.badRequest("invalid_field", "field '" + recordField + "' must be an object"));
      }
      subject = load(record.copy(), recordField);
    }
    return subject.compose(s -> onboarding ? seller(ctx, s) : transaction(ctx, s));
  }

  private Future<String> load(JsonObject record, String kind) {
    if (record.getValue("kind") == null) {
      record.put("kind", kind);
    } else if (!kind.equals(record.getValue("kind"))) {
      return Future.failedFuture(ApiException.badRequest("invalid_field", "field '" + kind + ".kind' must be '" + kind + "'"));
    }
    String text = record.encode();
    if (text.length() > conf.maxInlineRecordChars()) {
      return Future.failedFuture(ApiException.tooLarge("the inline record is longer than " + conf.maxInlineRecordChars()
          + " characters"));
    }
    return request(Addresses.RECORDS_LOAD, new JsonObject().put("text", text).put("wait", true)).compose(job -> {
      JsonArray errors = job.getJsonArray("errors", new JsonArray());
      if (job.getLong("failed", 0L) > 0 || !errors.isEmpty()) {
        JsonObject first = errors.isEmpty() ? new JsonObject() : errors.getJsonObject(0);
        String field = first.getString("field");
        return Future.failedFuture(ApiException.badRequest("invalid_record", "the inline " + kind + " is invalid"
            + (field == null ? "" : ": field '" + field + "'") + ": " + first.getString("reason", "rejected")));
      }
      String id = record.getString("id");
      return id == null ? Future.failedFuture(ApiException.badRequest("invalid_record", "the inline " + kind
          + " has no id")) : Future.succeededFuture(id);
    });
  }

  private Future<Void> seller(DecisionContext ctx, String sellerId) {
    return request(Addresses.RECORDS_GET, new JsonObject().put("id", sellerId).put("asOf", ctx.asOf)).compose(body -> {
      if (!"seller".equals(body.getString("kind"))) {
        return Future.failedFuture(ApiException.badRequest("not_a_seller", "record '" + sellerId + "' is a "
            + body.getString("kind") + ", not a seller"));
      }
      ctx.sellerId = sellerId;
      ctx.subjectId = sellerId;
      if (body.getString("country") != null) {
        ctx.facts.put("country", body.getString("country"));
      }
      return Future.succeededFuture();
    });
  }

  private Future<Void> transaction(DecisionContext ctx, String txId) {
    return request(Addresses.RECORDS_GET, new JsonObject().put("id", txId).put("asOf", ctx.asOf)).compose(body -> {
      if (!"transaction".equals(body.getString("kind"))) {
        return Future.failedFuture(ApiException.badRequest("not_a_transaction", "record '" + txId + "' is a "
            + body.getString("kind") + ", not a transaction"));
      }
      ctx.transactionId = txId;
      ctx.subjectId = txId;
      ctx.sellerId = body.getString("sellerId");
      ctx.buyerId = body.getString("buyerId");
      ctx.transaction = body;
      ctx.amount = body.getDouble("amount");
      ctx.facts.put("currency", body.getString("currency"));
      return Future.succeededFuture();
    });
  }
}
