package dev.argus.agent;

import dev.argus.common.ApiException;
import dev.argus.runs.RunStatus;
import dev.argus.runs.RunStore;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.function.Function;

/** Reads of a run and of its events: from the coordinator's live run while there is one, else from the run store. */
public final class RunQueries {

  private final Function<String, LiveRun> live;
  private final RunStore store;

  RunQueries(Function<String, LiveRun> live, RunStore store) {
    this.live = live;
    this.store = store;
  }

  public Future<JsonObject> get(String runId) {
    LiveRun lr = live.apply(runId);
    if (lr != null) {
      return Future.succeededFuture(lr.run.toJson().copy());
    }
    return store.find(runId).compose(r -> r.map(run -> Future.succeededFuture(run.toJson()))
        .orElseGet(() -> Future.failedFuture(ApiException.notFound("unknown_run", "no run '" + runId + "'"))));
  }

  /**
   * The events after {@code afterId}, at most {@code limit} of them ({@code limit <= 0}: all): from memory while the
   * run is live, else from the store. {@code more} tells that the page was cut; {@code finished} that the run ended.
   */
  public Future<JsonObject> events(String runId, long afterId, int limit) {
    LiveRun lr = live.apply(runId);
    if (lr != null) {
      // finished only once the terminal event is out, so a replay never ends before it
      return Future.succeededFuture(lr.journal.page(afterId, limit)
          .put("finished", lr.finished && lr.journal.allPublished()));
    }
    return store.find(runId).compose(r -> {
      if (r.isEmpty()) {
        return Future.failedFuture(ApiException.notFound("unknown_run", "no run '" + runId + "'"));
      }
      boolean finished = r.get().status() != RunStatus.RUNNING;
      return store.events(runId, afterId).map(list -> RunJournal.page(list, afterId, limit).put("finished", finished));
    });
  }
}
