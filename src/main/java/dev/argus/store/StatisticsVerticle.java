package dev.argus.store;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;

import java.util.List;
import java.util.logging.Logger;

/**
 * Refreshes stale planner statistics ({@link PlannerStatistics}) at start and then every
 * {@code store.analyzeCheckMs}: a bulk load of records or documents is followed by fresh plans within that period,
 * without relying on the server's autovacuum. One check at a time; a failed check is logged and the next one runs.
 */
public final class StatisticsVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(StatisticsVerticle.class.getName());

  private final Database db;
  private final long periodMs;
  private boolean running;
  private boolean stopped;
  private long timer = -1;

  public StatisticsVerticle(Database db, long periodMs) {
    this.db = db;
    this.periodMs = periodMs;
  }

  @Override
  public Future<?> start() {
    check();
    timer = vertx.setPeriodic(periodMs, id -> check());
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    stopped = true;
    vertx.cancelTimer(timer);
    return Future.succeededFuture();
  }

  private void check() {
    if (running) {
      return;
    }
    running = true;
    long started = System.nanoTime();
    PlannerStatistics.refreshStale(db).onComplete(done -> finished(done, started));
  }

  /** The end of a check: the tables analysed, or why not (a check cut short by the shutdown is not a failure). */
  void finished(AsyncResult<List<String>> done, long started) {
    running = false;
    if (done.failed()) {
      if (!stopped) {
        LOG.warning("planner statistics not refreshed: " + done.cause().getMessage());
      }
    } else if (!done.result().isEmpty()) {
      logAnalysed(done.result(), started);
    }
  }

  private static void logAnalysed(List<String> tables, long started) {
    LOG.info("refreshed planner statistics of " + String.join(", ", tables) + " in "
        + (System.nanoTime() - started) / 1_000_000 + " ms");
  }
}
