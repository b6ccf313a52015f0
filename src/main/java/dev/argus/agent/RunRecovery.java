package dev.argus.agent;

import dev.argus.agent.phases.Phase;
import dev.argus.agent.profile.Profiles;
import dev.argus.config.AgentConf;
import dev.argus.runs.Run;
import dev.argus.runs.RunEvent;
import dev.argus.runs.RunStatus;
import dev.argus.runs.RunStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * How interrupted runs get going again. A single process resumes, at start, every run a previous process left
 * {@code running}. In cluster mode ({@link RunOwnership}) a node resumes only the runs whose lease it claims — its own
 * after a restart, a dead node's once their lease expired — and stops driving a run another node took over. A run
 * is resumed from its last checkpoint (an {@code agent_log} event says from where and why) or, when that cannot be
 * done, ended failed with the reason.
 *
 * <p>Used from the coordinator verticle's context only, on the coordinator's live runs.
 */
final class RunRecovery {

  private static final Logger LOG = Logger.getLogger(RunRecovery.class.getName());

  private final RunCoordinator coordinator;
  private final Vertx vertx;
  private final RunStore store;
  private final Profiles profiles;
  private final AgentConf conf;
  private final Map<String, LiveRun> live;
  /** Null in a single process. */
  private final RunOwnership ownership;
  private final RecordedRuns recorded;

  RunRecovery(RunCoordinator coordinator, Vertx vertx, RunStore store, Profiles profiles, AgentConf conf,
              Map<String, LiveRun> live, RunOwnership ownership, RecordedRuns recorded) {
    this.recorded = recorded;
    this.coordinator = coordinator;
    this.vertx = vertx;
    this.store = store;
    this.profiles = profiles;
    this.conf = conf;
    this.live = live;
    this.ownership = ownership;
  }

  Future<Integer> resumeAll() {
    if (ownership != null) {
      return ownership.start(this::driving, this::known, this::abandon, this::takeOver);
    }
    return store.findByStatus(RunStatus.RUNNING, 10_000).compose(runs -> {
      List<Future<Void>> all = new ArrayList<>();
      for (Run run : runs) {
        if (!live.containsKey(run.runId())) {
          all.add(resume(run, 0, "a restart", null));
        }
      }
      return Future.join(all).map(all.size());
    });
  }

  void stop() {
    if (ownership != null) {
      ownership.stop();
    }
  }

  /** The runs this node is driving now. */
  private Set<String> driving() {
    Set<String> ids = new HashSet<>();
    live.forEach((id, lr) -> {
      if (!lr.finished) {
        ids.add(id);
      }
    });
    return ids;
  }

  /** The runs this node drives or is ending, and the decisions in flight here: never taken over by its own scans. */
  private Set<String> known() {
    Set<String> ids = new HashSet<>(live.keySet());
    ids.addAll(recorded.inFlight());
    return ids;
  }

  /** Another node holds the run's lease now: stop driving it here, silently (that node goes on from the checkpoint). */
  void abandon(String runId) {
    LiveRun lr = live.remove(runId);
    if (lr != null) {
      lr.abandoned = true;
      lr.finished = true;
    }
  }

  /** This node claimed the lease of a run whose node stopped renewing it: resume it from its checkpoint, or fail it. */
  private Future<Void> takeOver(String runId, int takeovers) {
    return store.find(runId).compose(found -> {
      if (live.containsKey(runId) || recorded.inFlight().contains(runId)) {
        return Future.succeededFuture(); // this node's own run, ending: its lease stays until its record says so
      }
      if (found.isEmpty() || found.get().status() != RunStatus.RUNNING) {
        return ownership.release(runId).mapEmpty();
      }
      if (RecordedRuns.DECISION_PHASE.equals(found.get().nextPhase())) {
        return recorded.takeOver(found.get(), takeovers);
      }
      String why = "the loss of its node (lease expired; taken over by node " + ownership.nodeId() + ")";
      if (takeovers > ownership.conf().maxTakeovers()) {
        return resume(found.get(), takeovers, why, "taken over " + takeovers + " times, more than cluster.maxTakeovers ("
            + ownership.conf().maxTakeovers() + "): its nodes keep dying while driving it; not resumed again");
      }
      return resume(found.get(), takeovers, why, null);
    });
  }

  /** Saves the record of a run whose terminal event is already in its log, and lets go of its lease. */
  private void endedRecord(Run run, RunEvent end) {
    long now = System.currentTimeMillis();
    Run ended = RunEvent.FINAL.equals(end.type())
        ? run.withProgress(RunStatus.COMPLETED, null, run.loopCount(), run.replans(), null, now)
            .withOutcome(end.data().getJsonArray("citations", new io.vertx.core.json.JsonArray()),
                end.data().getJsonObject("verification", new JsonObject()), end.data())
        : run.withProgress(RunStatus.FAILED, null, run.loopCount(), run.replans(),
            end.data().getString("error", "failed"), now);
    store.save(ended).compose(v -> ownership == null ? Future.succeededFuture() : ownership.release(run.runId()))
        .onSuccess(v -> LOG.info("run " + run.runId() + " had ended (event " + end.id() + ", " + end.type()
            + ") before its node died; its record now says so"))
        .onFailure(err -> LOG.warning("recording the end of run " + run.runId() + " failed: " + err.getMessage()));
  }

  /**
   * {@code fence}: the lease's hand-over count this node claimed it at; {@code why}: what interrupted the run;
   * {@code failReason}: non-null to end it failed instead of resuming.
   */
  private Future<Void> resume(Run run, int fence, String why, String failReason) {
    return store.lastEventId(run.runId()).compose(last -> store.events(run.runId(), 0).map(events -> {
      RunEvent end = events.stream().filter(RunEvent::terminal).findFirst().orElse(null);
      if (end != null) {
        // it ended (its terminal event is stored) but its node died before the record said so: record it, no rerun
        endedRecord(run, end);
        return (Void) null;
      }
      LiveRun lr = new LiveRun(run, new RunJournal(vertx, store, run.runId(), last, events));
      lr.fence = fence;
      live.put(run.runId(), lr);
      long age = System.currentTimeMillis() - run.updatedAtMs();
      if (failReason != null) {
        coordinator.fail(lr, "interrupted (" + why + ") and " + failReason);
      } else if (conf.resumeMaxAgeMs() > 0 && age > conf.resumeMaxAgeMs()) {
        coordinator.fail(lr, "interrupted by " + why + " " + age + " ms ago, older than agent.resumeMaxAgeMs; not resumed");
      } else if (Phase.fromWire(run.nextPhase()) == null || !profiles.has(run.profile())) {
        coordinator.fail(lr, "interrupted by " + why + " and cannot resume (checkpoint: next phase " + run.nextPhase()
            + ", profile " + run.profile() + ")");
      } else {
        coordinator.emit(lr, RunEvent.AGENT_LOG, new JsonObject().put("phase", run.nextPhase()).put("message",
            "resumed after " + why + " from the checkpoint before " + run.nextPhase()).put("fallback", false)
            .put("resumed", true));
        if (lr.journal.draftOpen()) {
          coordinator.emit(lr, RunEvent.RESET, new JsonObject().put("reason", "resumed"));
        }
        coordinator.drive(lr);
      }
      return (Void) null;
    })).recover(err -> {
      LOG.log(Level.WARNING, "could not resume run " + run.runId(), err);
      return Future.succeededFuture();
    });
  }
}
