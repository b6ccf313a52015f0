package dev.argus.agent;

import dev.argus.config.ClusterConf;
import dev.argus.runs.RunLeases;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Run ownership in cluster mode: this node ({@code nodeId}) holds a lease ({@link RunLeases}) on every run its
 * coordinator drives. Every {@code cluster.renewMs} it renews them all in one statement and learns which it still
 * holds (a run whose lease another node took is abandoned here: that node now drives it). Every
 * {@code cluster.takeoverScanMs} it looks for running runs whose lease expired — their node died or lost the
 * database — claims them one conditional update at a time (one node wins each) and hands them to the coordinator to
 * resume from their last checkpoint. So a run of a dead node resumes within {@code leaseMs + takeoverScanMs}.
 *
 * <p>Used from the coordinator verticle's context only (timers fire there).
 */
final class RunOwnership {

  private static final Logger LOG = Logger.getLogger(RunOwnership.class.getName());
  static final int SCAN_LIMIT = 100;

  private final Vertx vertx;
  private final RunLeases leases;
  private final ClusterConf conf;
  private final String nodeId;
  private long renewTimer = -1;
  private long scanTimer = -1;
  private boolean scanning;
  private boolean renewing;

  RunOwnership(Vertx vertx, RunLeases leases, ClusterConf conf, String nodeId) {
    this.vertx = vertx;
    this.leases = leases;
    this.conf = conf;
    this.nodeId = nodeId;
  }

  String nodeId() {
    return nodeId;
  }

  ClusterConf conf() {
    return conf;
  }

  /** Takes a new run's lease; false when a run of that id already has one. */
  Future<Boolean> acquire(String runId) {
    return leases.acquire(runId, nodeId, System.currentTimeMillis(), conf.leaseMs());
  }

  /** Whether this node still holds the run's lease (extended by {@code leaseMs} when it does). */
  Future<Boolean> confirm(String runId) {
    return leases.confirm(runId, nodeId, System.currentTimeMillis(), conf.leaseMs());
  }

  /** Lets go of an ended run (after its final checkpoint is stored). */
  Future<Boolean> release(String runId) {
    return leases.release(runId, nodeId);
  }

  /**
   * Starts renewing and scanning. {@code driving}: the ids of the runs this node drives now; {@code known}: those and
   * the runs that ended here but whose record may not say so yet (never taken over by a scan); {@code lost}: told of
   * runs whose lease another node took; {@code takeOver}: resumes a claimed run (run id, how often it was taken
   * over). Completes after the first scan (a restarted node takes back its runs at once).
   */
  Future<Integer> start(Supplier<Set<String>> driving, Supplier<Set<String>> known, Consumer<String> lost,
                        BiFunction<String, Integer, Future<Void>> takeOver) {
    renewTimer = vertx.setPeriodic(conf.renewMs(), id -> renew(driving, lost));
    scanTimer = vertx.setPeriodic(conf.takeoverScanMs(), id -> scan(known, takeOver));
    return scan(known, takeOver);
  }

  void stop() {
    vertx.cancelTimer(renewTimer);
    vertx.cancelTimer(scanTimer);
  }

  private void renew(Supplier<Set<String>> driving, Consumer<String> lost) {
    if (renewing) {
      return;
    }
    renewing = true;
    // only runs driven before the renewal started count: a run's lease is taken before it is driven, so each of
    // them is held now unless another node took it (a run started meanwhile may be missing from the answer)
    Set<String> before = driving.get();
    leases.renew(nodeId, System.currentTimeMillis(), conf.leaseMs())
        .onSuccess(held -> {
          Set<String> now = driving.get();
          for (String runId : before) {
            if (now.contains(runId) && !held.contains(runId)) {
              LOG.warning("run " + runId + ": node " + nodeId + " lost its lease (another node took the run over);"
                  + " no longer driven here");
              lost.accept(runId);
            }
          }
        })
        .onFailure(err -> LOG.log(Level.WARNING, "renewing the run leases of node " + nodeId + " failed: "
            + err.getMessage()))
        .onComplete(x -> renewing = false);
  }

  /** One pass: claims the takeable runs this node does not know; completes with how many it took over. */
  Future<Integer> scan(Supplier<Set<String>> known, BiFunction<String, Integer, Future<Void>> takeOver) {
    if (scanning) {
      return Future.succeededFuture(0);
    }
    scanning = true;
    long now = System.currentTimeMillis();
    // leases left by nodes that died before recording their run (or before letting go of an ended one)
    return leases.sweep(now - conf.leaseMs()).compose(x -> leases.takeable(nodeId, now, SCAN_LIMIT)).compose(ids -> {
      Set<String> mine = known.get();
      // claims one after the other (each one statement on the leases' own connections), resumes side by side: a
      // resume reads the run's checkpoint and events through the shared pool, and must not delay the next claim
      List<Future<Void>> resumed = new ArrayList<>();
      Future<Void> claims = Future.succeededFuture();
      for (String runId : ids) {
        if (mine.contains(runId)) {
          continue;
        }
        claims = claims.compose(v -> leases.takeOver(runId, nodeId, System.currentTimeMillis(), conf.leaseMs())
            .map(claimed -> {
              claimed.ifPresent(lease -> {
                LOG.info("run " + runId + ": lease taken over by node " + nodeId + " (hand-over "
                    + lease.takeovers() + ")");
                resumed.add(takeOver.apply(runId, lease.takeovers()));
              });
              return (Void) null;
            }));
      }
      return claims.compose(v -> Future.join(new ArrayList<>(resumed)).map(resumed.size()));
    }).onFailure(err -> LOG.log(Level.WARNING, "scanning for runs to take over failed: " + err.getMessage()))
        .otherwise(0)
        .onComplete(x -> scanning = false);
  }
}
