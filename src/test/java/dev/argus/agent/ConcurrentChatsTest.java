package dev.argus.agent;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 50 chats at once over HTTP/SSE: every one ends with {@code final}, with its own run and gap-free ids. Chat admission
 * ({@code agent.maxConcurrentChats} 16 by default) runs 16 at once; the others wait, their streams opened by a
 * {@code queued} event without an id, so at most 50 - 16 = 34 streams begin with it.
 */
class ConcurrentChatsTest {

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
  }

  @Test
  void fiftyConcurrentChatsAllEndWithFinal() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      AgentHarness app = await(AgentHarness.start(vertx, AgentHarness.config()
          .with("agent", "cacheTtlMs", 0), Corpus.standard()));
      SseClient sse = new SseClient(vertx, app.port());
      String[] questions = {"How long do refunds take to be processed?", "How long does standard shipping take?",
          "Which sellers are reviewed manually?", "Can digital goods be refunded?", "How long does international shipping take?"};
      List<Future<SseClient.Result>> all = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        all.add(sse.post("/api/chat", new JsonObject().put("question", questions[i % questions.length] + " (" + i + ")"),
            null));
      }
      await(Future.all(all));
      Set<String> runIds = new HashSet<>();
      int queued = 0;
      for (Future<SseClient.Result> f : all) {
        SseClient.Result r = f.result();
        assertEquals(200, r.status());
        assertEquals("final", r.types().get(r.types().size() - 1), r.types().toString());
        assertTrue(r.last("final").data().getString("answer").contains("[cite:"), r.last("final").data().encode());
        List<SseClient.Event> events = r.events();
        if ("queued".equals(events.get(0).type())) {
          queued++;
          assertEquals(-1, events.get(0).id(), "the queued event has no id");
          events = events.subList(1, events.size());
        }
        for (int i = 0; i < events.size(); i++) {
          assertEquals(i + 1, events.get(i).id(), r.types().toString());
        }
        assertEquals("run", events.get(0).type(), r.types().toString());
        runIds.add(events.get(0).data().getString("runId"));
      }
      assertEquals(50, runIds.size());
      assertTrue(queued >= 1 && queued <= 34, queued + " streams began with queued");
    } finally {
      await(vertx.close());
    }
  }
}
