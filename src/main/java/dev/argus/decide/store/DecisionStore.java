package dev.argus.decide.store;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Optional;

/**
 * Where decisions, reviews and shadow outcomes live. Decisions are append-only (the database refuses updates and
 * deletes too); a review's completion is one transaction that closes the review and appends the correcting decision
 * (and, for an escalation, opens the next review). Both dialects pass {@code DecisionStoreContract}.
 */
public interface DecisionStore {

  /** Appends a decision (its JSON as built by the engine: decisionId, profile, subjectId, outcome, ...). */
  Future<Void> append(JsonObject decision);

  /** Appends a decision and opens its review in one transaction. */
  Future<Void> appendWithReview(JsonObject decision, JsonObject review);

  Future<Optional<JsonObject>> get(String decisionId);

  /** The decision a run recorded (not a review's correction, which carries the run id of what it corrects). */
  Future<Optional<JsonObject>> byRun(String runId);

  /** Decisions newest first; {@code q}: subject, outcome, status, profile, from, to (epoch ms), limit. */
  Future<List<JsonObject>> list(DecisionQuery q);

  /** The ids of the decisions that correct this one, oldest first. */
  Future<List<String>> correctedBy(String decisionId);

  /** Reviews with {@code status} (pending or completed) sorted by {@code confidence} (lowest first) or {@code age}. */
  Future<List<JsonObject>> reviews(String status, String sort, int limit);

  Future<Optional<JsonObject>> review(String reviewId);

  /**
   * Claims a pending review for {@code analyst} until {@code now + ttlMs}; fails 409 {@code claimed} when someone
   * else holds an unexpired claim, 409 {@code review_closed} when it is completed, 404 when unknown.
   */
  Future<JsonObject> claim(String reviewId, String analyst, long now, long ttlMs);

  /**
   * Completes a pending review: closes it (only if still pending and not claimed by someone else), appends
   * {@code newDecision} and, when {@code nextReview} is not null, opens it — all in one transaction.
   */
  Future<JsonObject> complete(String reviewId, String analyst, String action, String reason, JsonObject newDecision,
                              JsonObject nextReview, long now);

  /** Per profile: pending, completed, breached (completed late or pending past due). */
  Future<JsonObject> sla(long now);

  Future<Void> appendShadow(JsonObject shadow);

  /** Shadow outcomes of a version, newest first. */
  Future<List<JsonObject>> shadow(String version, int limit);
}
