package dev.argus.agent;

import dev.argus.common.ApiException;
import dev.argus.runs.RunStatus;
import dev.argus.runs.RunStore;
import dev.argus.runs.RunSummary;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
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
   * The newest runs of the store (chat and decision runs), {@code {limit, before?, status?, namespaces?}} →
   * {@code {items, next?}}: {@code next} (the last item's creation time, the {@code before} of the next page) only
   * when the page is full. {@code namespaces} (a limited key's): only runs asked in one of them (decision runs, which
   * carry none, are left out). A run this node drives shows its live status (its checkpoint may lag by one write). Runs created in the same millisecond as a page's last one may fall between two pages.
   */
  public Future<JsonObject> recent(JsonObject req) {
    int limit;
    Long before;
    RunStatus status;
    java.util.List<String> namespaces = null;
    try {
      limit = req.getInteger("limit", 50);
      before = req.getLong("before");
      String s = req.getString("status");
      status = s == null ? null : RunStatus.valueOf(s.toUpperCase(java.util.Locale.ROOT));
      JsonArray ns = req.getJsonArray("namespaces");
      if (ns != null) {
        namespaces = new java.util.ArrayList<>();
        for (Object o : ns) {
          namespaces.add((String) o);
        }
      }
    } catch (RuntimeException e) {
      return Future.failedFuture(ApiException.badRequest("invalid_request", "invalid run list request"));
    }
    if (limit < 1 || limit > RunStore.MAX_RECENT) {
      return Future.failedFuture(ApiException.badRequest("invalid_parameter",
          "limit must be an integer between 1 and " + RunStore.MAX_RECENT));
    }
    if (before != null && before < 0) {
      return Future.failedFuture(ApiException.badRequest("invalid_parameter", "before must be a non-negative integer"));
    }
    return store.recent(limit, before, status, namespaces).map(list -> {
      JsonArray items = new JsonArray();
      for (RunSummary r : list) {
        // this node's live run is ahead of its last checkpoint (its end is stored just after the final event)
        LiveRun lr = live.apply(r.runId());
        RunSummary shown = lr == null ? r : new RunSummary(r.runId(), r.profile(), lr.run.status(), r.question(),
            r.createdAtMs(), lr.run.updatedAtMs());
        if (status == null || shown.status() == status) {
          items.add(shown.toJson());
        }
      }
      JsonObject out = new JsonObject().put("items", items);
      if (list.size() == limit) {
        out.put("next", list.get(list.size() - 1).createdAtMs());
      }
      return out;
    });
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
