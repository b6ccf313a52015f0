package dev.argus.agent;

import dev.argus.agent.compose.Citations;
import dev.argus.agent.phases.Phase;
import dev.argus.agent.phases.PhaseEvent;
import dev.argus.agent.phases.PhaseRequest;
import dev.argus.agent.phases.PhaseResult;
import dev.argus.agent.profile.Profile;
import dev.argus.agent.profile.Profiles;
import dev.argus.bus.Addresses;
import dev.argus.bus.BusFailures;
import dev.argus.common.ApiException;
import dev.argus.config.AgentConf;
import dev.argus.runs.Run;
import dev.argus.runs.RunEvent;
import dev.argus.runs.RunInput;
import dev.argus.runs.RunStatus;
import dev.argus.runs.RunStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Drives the TPAOR runs: sends each run to its next phase's address ({@link Phase#address()}) with a timeout, records
 * the phase's result in the run, asks {@link PhaseTransitions} where to go next, checkpoints the run after every
 * phase through its {@link RunJournal} (which also numbers, publishes and writes its events), and always ends the
 * run with a {@code final} or an {@code error} event. Resumes the runs a previous process left running.
 *
 * <p>Used from the coordinator verticle's context only (no locking).
 */
public final class RunCoordinator {

  private static final Logger LOG = Logger.getLogger(RunCoordinator.class.getName());
  /** How long the namespace check waits for the knowledge base's answer. */
  private final Vertx vertx;
  private final RunStore store;
  private final Profiles profiles;
  private final AgentConf conf;
  private final ResponseCache cache;
  private final Conversations conversations;
  private final Map<String, LiveRun> live = new HashMap<>();
  private final RunQueries queries;
  /** Cluster mode: the leases of the runs this node drives; null in a single process. */
  private final RunOwnership ownership;
  private final RunRecovery recovery;
  private final RunAdmission admission;
  private final RecordedRuns recorded;

  public RunCoordinator(Vertx vertx, RunStore store, Profiles profiles, AgentConf conf) {
    this(vertx, store, profiles, conf, null);
  }

  RunCoordinator(Vertx vertx, RunStore store, Profiles profiles, AgentConf conf, RunOwnership ownership) {
    this.vertx = vertx;
    this.ownership = ownership;
    this.store = store;
    this.queries = new RunQueries(live::get, store);
    this.profiles = profiles;
    this.conf = conf;
    this.cache = new ResponseCache(conf.cacheTtlMs(), conf.cacheMaxEntries());
    this.conversations = new Conversations(store, conf);
    this.admission = new RunAdmission(vertx, profiles, conf);
    this.recorded = new RecordedRuns(vertx, store, ownership, live::containsKey);
    this.recovery = new RunRecovery(this, vertx, store, profiles, conf, live, ownership, recorded);
  }

  /** Deletes session turns past their TTL. */
  public Future<Integer> purgeSessions() {
    return conversations.purge();
  }

  /** Retention: deletes the ended runs last updated before {@code beforeMs}, with their events. */
  public Future<RunStore.Purged> purgeRuns(long beforeMs) {
    return store.purgeRuns(beforeMs);
  }

  public ResponseCache cache() {
    return cache;
  }

  // ---- start -----------------------------------------------------------------------------------

  /** Validates and starts a run; completes with its id once the run is recorded and its {@code run} event is out. */
  public Future<String> start(StartRun req) {
    String runId = req.runId() == null || req.runId().isBlank() ? UUID.randomUUID().toString() : req.runId();
    if (live.containsKey(runId)) {
      return Future.failedFuture(duplicate(runId));
    }
    return admission.admit(req).compose(admitted -> start(req, runId, admitted));
  }

  private static ApiException duplicate(String runId) {
    return ApiException.badRequest("duplicate_run", "run " + runId + " already exists");
  }

  private Future<String> start(StartRun req, String runId, RunAdmission.Admitted admitted) {
    String question = admitted.question();
    Profile profile = admitted.profile();
    String namespace = admitted.namespace();
    boolean strip = req.stripMarkup() == null ? conf.stripMarkup() : req.stripMarkup();
    // cluster mode: the run's lease first, so no other node ever drives (or takes over) a run of the same id
    Future<Boolean> owned = ownership == null ? Future.succeededFuture(true) : ownership.acquire(runId);
    return owned.compose(ok -> ok ? conversations.history(req) : Future.failedFuture(duplicate(runId)))
        .compose(history -> {
      if (live.containsKey(runId)) {
        return Future.failedFuture(duplicate(runId));
      }
      long now = System.currentTimeMillis();
      RunInput input = new RunInput(question, namespace, req.filters(), req.sessionId(), history, strip);
      LiveRun lr = new LiveRun(Run.start(runId, profile.name(), input, now),
          new RunJournal(vertx, store, runId, 0, List.of()));
      live.put(runId, lr);
      JsonObject started = new JsonObject().put("runId", runId).put("profile", profile.name())
          .put("namespace", namespace).put("question", question).put("status", "running");
      emit(lr, RunEvent.RUN, ownership == null ? started : started.put("node", ownership.nodeId()));
      // a follow-up means something else in another conversation: answered afresh, never cached
      // the same question with markup kept is another answer text
      lr.cacheKey = history.isEmpty() ? ResponseCache.key(profile.name(), namespace, question, input.filters())
          + (strip ? "" : "\u0000markup") : null;
      JsonObject cached = lr.cacheKey == null ? null : cache.get(lr.cacheKey, now);
      if (cached != null) {
        return store.save(lr.run).onSuccess(x -> answerFromCache(lr, cached)).map(runId);
      }
      return store.save(lr.run).onSuccess(x -> drive(lr)).map(runId);
    });
  }

  // ---- the state machine -----------------------------------------------------------------------

  void drive(LiveRun lr) {
    if (lr.abandoned) {
      return;
    }
    Run run = lr.run;
    Phase phase = Phase.fromWire(run.nextPhase());
    if (phase == null) {
      fail(lr, "cannot continue: unknown next phase '" + run.nextPhase() + "'");
      return;
    }
    Profile profile;
    try {
      profile = profiles.get(run.profile());
    } catch (ApiException e) {
      fail(lr, "profile '" + run.profile() + "' no longer exists");
      return;
    }
    long timeout = Math.min(profile.limits().phaseTimeoutMs(), conf.phaseTimeoutMs());
    emit(lr, RunEvent.PHASE, new JsonObject().put("name", phase.wire()).put("status", "start")
        .put("loop", run.loopCount()));
    long sent = System.nanoTime();
    PhaseRequest request = new PhaseRequest(run, run.profile(), run.nextArgs());
    vertx.eventBus().<JsonObject>request(phase.address(), request.toJson(), new DeliveryOptions().setSendTimeout(timeout))
        .onSuccess(m -> {
          long roundTripNs = System.nanoTime() - sent;
          PhaseResult result = PhaseResult.fromJson(m.body());
          long phaseNs = m.body().getLong("durationNs", result.durationMs() * 1_000_000);
          advance(lr, phase, result, roundTripNs, phaseNs, profile);
        })
        .onFailure(err -> {
          String reason = err instanceof ReplyException re && re.failureType() == ReplyFailure.TIMEOUT
              ? "phase " + phase.wire() + " timed out after " + timeout + " ms"
              : "phase " + phase.wire() + " failed: " + BusFailures.toApi(err).getMessage();
          emit(lr, RunEvent.PHASE, new JsonObject().put("name", phase.wire()).put("status", "end").put("ok", false)
              .put("durationMs", (System.nanoTime() - sent) / 1_000_000));
          fail(lr, reason);
        });
  }

  /** {@code roundTripNs}: request to reply as the coordinator saw it; {@code phaseNs}: the phase's own work. */
  private void advance(LiveRun lr, Phase phase, PhaseResult result, long roundTripNs, long phaseNs, Profile profile) {
    if (lr.abandoned) {
      return; // another node took the run over meanwhile
    }
    Run run = lr.run;
    long cpStart = System.nanoTime();
    lr.record(phase, result);
    JsonObject entry = run.chainOfThought().getJsonObject(run.chainOfThought().size() - 1);
    PhaseTransitions.Transition t = PhaseTransitions.after(phase, result.output(), run.loopCount(), run.replans(),
        Math.min(profile.limits().maxRefinements(), conf.maxRefinements()));
    if (t.note() != null) {
      emit(lr, RunEvent.AGENT_LOG, new JsonObject().put("phase", phase.wire()).put("message", t.note())
          .put("fallback", false));
    }
    if (!t.finished() && lr.draftOpen) {
      emit(lr, RunEvent.RESET, new JsonObject().put("reason", "refinement"));
    }
    lr.run = run.withProgress(RunStatus.RUNNING, t.finished() ? null : t.next().wire(), t.args(), t.loops(),
        t.replans(), null, System.currentTimeMillis());
    long overheadNs = Math.max(0, roundTripNs - phaseNs);
    // The checkpoint is written behind the run (ordered per run), not waited for: if the process dies before it
    // lands, the run resumes from the previous checkpoint and repeats one phase.
    checkpoint(lr);
    // bus hops + this bookkeeping, in ms with 0.01 ms resolution
    double overheadMs = Math.round((overheadNs + System.nanoTime() - cpStart) / 10_000.0) / 100.0;
    entry.put("overheadMs", overheadMs);
    lr.run.timings().put("overheadMs", lr.run.timings().getJsonArray("overheadMs", new JsonArray()).add(overheadMs));
    emit(lr, RunEvent.PHASE, new JsonObject().put("name", phase.wire()).put("status", "end").put("ok", true)
        .put("durationMs", roundTripNs / 1_000_000).put("path", result.path())
        .put("promptTokens", result.usage().promptTokens()).put("completionTokens", result.usage().completionTokens()));
    if (t.finished()) {
      stillOwned(lr).onSuccess(owned -> finish(lr, result.output(), profile));
    } else {
      drive(lr);
    }
  }

  /**
   * Cluster mode: before a run's terminal events, this node confirms (and extends) its lease, so a node that was
   * stalled past its lease does not finish a run another node has taken over (that node finishes it; this one lets
   * go). Completes only when the run may end here.
   */
  private Future<Void> stillOwned(LiveRun lr) {
    if (ownership == null) {
      return Future.succeededFuture();
    }
    return ownership.confirm(lr.run.runId()).compose(owned -> {
      if (!owned) {
        LOG.warning("run " + lr.run.runId() + ": another node took it over; not ended here");
        recovery.abandon(lr.run.runId());
        return Future.failedFuture("lease lost");
      }
      return Future.succeededFuture();
    }, err -> {
      LOG.warning("run " + lr.run.runId() + ": could not confirm its lease (" + err.getMessage() + "); ending it here");
      return Future.succeededFuture();
    });
  }

  private void finish(LiveRun lr, JsonObject reflect, Profile profile) {
    Outcome o = Outcome.of(reflect, profile.prompts().noAnswer(), lr.run.input().stripMarkup());
    // only now, after Reflect, does answer text stream: drafts are withdrawn first
    if (lr.draftOpen) {
      emit(lr, RunEvent.RESET, new JsonObject().put("reason", "final"));
    }
    for (String piece : Citations.pieces(o.answer())) {
      emit(lr, RunEvent.TOKEN, new JsonObject().put("text", piece));
    }
    JsonObject timings = lr.run.timings().copy().put("totalMs", lr.elapsedMs()).put("firstTokenMs", lr.firstTokenMs);
    JsonObject result = o.result(lr.run.runId(), timings, lr.run.loopCount());
    lr.run.timings().put("totalMs", timings.getLong("totalMs")).put("firstTokenMs", lr.firstTokenMs);
    emit(lr, RunEvent.CITATIONS, new JsonObject().put("citations", o.citations()));
    emit(lr, RunEvent.VERIFICATION, o.verificationEvent());
    emit(lr, RunEvent.FINAL, result);
    lr.run = lr.run.withProgress(RunStatus.COMPLETED, null, lr.run.loopCount(), lr.run.replans(), null,
        System.currentTimeMillis()).withOutcome(o.citations(), o.verification(), result);
    if (o.cacheable() && lr.cacheKey != null) {
      cache.put(lr.cacheKey, lr.run.input().namespace(), new JsonObject().put("result", result)
          .put("verification", o.verification()), System.currentTimeMillis());
    }
    if (!Outcome.SMALLTALK.equals(o.kind())) {
      JsonObject think = lr.run.phases().getJsonObject(Phase.THINK.wire(), new JsonObject())
          .getJsonObject("output", new JsonObject());
      conversations.remember(lr.run, think.getString("standalone"), o.answer());
    }
    close(lr);
  }

  private void answerFromCache(LiveRun lr, JsonObject cached) {
    JsonObject result = cached.getJsonObject("result").copy();
    JsonObject verification = cached.getJsonObject("verification", new JsonObject());
    String answer = result.getString("answer");
    emit(lr, RunEvent.AGENT_LOG, new JsonObject().put("phase", "cache").put("message",
        "answered from the response cache (run " + result.getString("runId") + ")").put("fallback", false));
    emit(lr, RunEvent.TOKEN, new JsonObject().put("text", answer));
    JsonArray citations = result.getJsonArray("citations", new JsonArray());
    result.put("runId", lr.run.runId()).put("cached", true).put("timings", new JsonObject()
        .put("totalMs", lr.elapsedMs()).put("firstTokenMs", lr.firstTokenMs));
    emit(lr, RunEvent.CITATIONS, new JsonObject().put("citations", citations));
    emit(lr, RunEvent.VERIFICATION, verification);
    emit(lr, RunEvent.FINAL, result);
    lr.run = lr.run.withProgress(RunStatus.COMPLETED, null, 0, 0, null, System.currentTimeMillis())
        .withOutcome(citations, verification, result);
    close(lr);
  }

  void fail(LiveRun lr, String reason) {
    if (lr.finished) {
      return;
    }
    if (ownership != null && !lr.confirmed) {
      lr.confirmed = true;
      stillOwned(lr).onSuccess(owned -> fail(lr, reason));
      return;
    }
    LOG.warning("run " + lr.run.runId() + " failed: " + reason);
    emit(lr, RunEvent.ERROR, new JsonObject().put("runId", lr.run.runId()).put("error", reason).put("code", "run_failed"));
    lr.run = lr.run.withProgress(RunStatus.FAILED, null, lr.run.loopCount(), lr.run.replans(), reason,
        System.currentTimeMillis());
    close(lr);
  }

  private void close(LiveRun lr) {
    lr.finished = true;
    String runId = lr.run.runId();
    // cluster mode: the terminal events, the ended record and the lease's release in one transaction fenced by the
    // lease (RunJournal.end), so a node stalled past its lease never ends a run its taker also ends
    Future<Boolean> ended = lr.abandoned ? Future.succeededFuture(false)
        : ownership == null ? checkpoint(lr).map(true)
        : lr.journal.end(Run.fromJson(lr.run.toJson().copy()), ownership.nodeId(), lr.fence);
    ended.onFailure(err -> LOG.log(Level.WARNING, "final checkpoint of " + runId + " failed", err)).onComplete(ar -> {
      if (ar.succeeded() && !ar.result()) {
        recovery.abandon(runId); // another node ends it
      } else {
        vertx.eventBus().publish(Addresses.RUNS_COMPLETED, new JsonObject().put("runId", runId)
            .put("profile", lr.run.profile()).put("kind", "chat").put("status", lr.run.status().wire()));
      }
    });
    if (conf.liveRunRetentionMs() > 0) {
      vertx.setTimer(conf.liveRunRetentionMs(), id -> {
        if (live.get(runId) == lr) {
          live.remove(runId);
        }
      });
    } else {
      lr.journal.flushed().onComplete(x -> live.remove(runId));
    }
  }

  // ---- events and checkpoints ------------------------------------------------------------------

  /** Numbers one event and has it stored, then published ({@code type}: a {@link RunEvent} constant). */
  void emit(LiveRun lr, String type, JsonObject data) {
    if (lr.abandoned) {
      return;
    }
    if (RunEvent.TOKEN.equals(type) && lr.firstTokenMs < 0) {
      lr.firstTokenMs = lr.elapsedMs();
    }
    if (RunEvent.DRAFT.equals(type)) {
      lr.draftOpen = true;
    } else if (RunEvent.RESET.equals(type)) {
      lr.draftOpen = false;
    }
    lr.journal.append(type, data);
  }

  /** Saves a snapshot of the run record taken now, after its events (see {@link RunJournal#checkpoint}). */
  private Future<Void> checkpoint(LiveRun lr) {
    if (lr.abandoned) {
      return Future.succeededFuture();
    }
    Run snapshot = Run.fromJson(lr.run.toJson().copy());
    return lr.journal.checkpoint(snapshot, ms -> lr.run.timings().put("checkpointWriteMs", lr.run.timings()
        .getJsonArray("checkpointWriteMs", new JsonArray()).add(ms)));
  }

  /** Flushes every live run's events (at shutdown); runs stay {@code running} and resume on the next start. */
  public Future<Void> flushAll() {
    List<Future<Void>> all = new ArrayList<>();
    for (LiveRun lr : live.values()) {
      all.add(lr.journal.settle());
    }
    return Future.join(all).mapEmpty();
  }

  /** Runs made elsewhere (decisions) that this coordinator records (and, in cluster mode, leases). */
  RecordedRuns recorded() {
    return recorded;
  }

  /** Reads of runs and their events, live or stored. */
  public RunQueries queries() {
    return queries;
  }

  /** An event a phase reported for a live run. */
  public void phaseEvent(PhaseEvent ev) {
    LiveRun lr = live.get(ev.runId());
    if (lr != null && !lr.finished) {
      emit(lr, ev.type(), ev.data());
    }
  }

  // ---- resume ----------------------------------------------------------------------------------

  /**
   * Continues every run left {@code running} from its last checkpoint, or marks it failed with the reason; in
   * cluster mode only the runs whose lease expired, now and at every scan (see {@link RunRecovery}).
   */
  public Future<Integer> resumeAll() {
    return recovery.resumeAll();
  }

  /** Cluster mode: stops the renewals and scans (the leases then expire and other nodes take the runs over). */
  public void stopOwnership() {
    recovery.stop();
  }
}
