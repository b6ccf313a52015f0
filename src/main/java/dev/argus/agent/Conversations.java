package dev.argus.agent;

import dev.argus.agent.compose.Citations;
import dev.argus.config.AgentConf;
import dev.argus.runs.Run;
import dev.argus.runs.RunStore;
import dev.argus.runs.SessionTurn;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The conversation a run continues: the history a client sent (the OpenAI-compatible API carries its messages), or
 * the recent turns of its chat session (at most {@code agent.historyTurns}, none older than
 * {@code agent.sessionTtlMs}). After a run, its turn is stored in the session (question, standalone rewrite, answer
 * without citation markers), keeping the newest {@code agent.sessionMaxTurns}; turns past the TTL are purged.
 */
final class Conversations {

  private static final Logger LOG = Logger.getLogger(Conversations.class.getName());
  /** Stored answers and answers sent as history are cut to this many characters. */
  static final int MAX_ANSWER_CHARS = 2_000;

  private final RunStore store;
  private final AgentConf conf;

  Conversations(RunStore store, AgentConf conf) {
    this.store = store;
    this.conf = conf;
  }

  /** The turns before this question, oldest first ({@code {question, standalone?, answer}}). */
  Future<JsonArray> history(StartRun req) {
    if (req.history() != null) {
      JsonArray out = new JsonArray();
      int from = Math.max(0, req.history().size() - conf.historyTurns());
      for (int i = from; i < req.history().size(); i++) {
        if (req.history().getValue(i) instanceof JsonObject t && t.getValue("question") instanceof String q) {
          out.add(new JsonObject().put("question", cut(q, conf.maxQuestionChars()))
              .put("answer", cut(t.getValue("answer") instanceof String a ? a : "", MAX_ANSWER_CHARS)));
        }
      }
      return Future.succeededFuture(out);
    }
    if (req.sessionId() == null || req.sessionId().isBlank() || conf.historyTurns() == 0) {
      return Future.succeededFuture(new JsonArray());
    }
    return store.recentTurns(req.sessionId(), System.currentTimeMillis() - conf.sessionTtlMs(), conf.historyTurns())
        .map(turns -> {
          JsonArray out = new JsonArray();
          turns.forEach(t -> out.add(t.toHistoryJson()));
          return out;
        });
  }

  /** Stores the turn of a finished run in its session (when it has one); failures are logged, never fatal. */
  void remember(Run run, String standalone, String answer) {
    String session = run.input().sessionId();
    if (session == null || session.isBlank()) {
      return;
    }
    String clean = cut(Citations.stripMarkers(answer == null ? "" : answer).trim(), MAX_ANSWER_CHARS);
    store.appendTurn(new SessionTurn(session, run.runId(), run.input().question(),
            standalone == null || standalone.isBlank() ? run.input().question() : standalone, clean,
            System.currentTimeMillis()), conf.sessionMaxTurns())
        .onFailure(err -> LOG.log(Level.WARNING, "storing the turn of run " + run.runId() + " failed", err));
  }

  /** Deletes the turns older than the session TTL. */
  Future<Integer> purge() {
    return store.purgeTurns(System.currentTimeMillis() - conf.sessionTtlMs());
  }

  private static String cut(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max);
  }
}
