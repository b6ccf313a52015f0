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

/** 50 chats at once over HTTP/SSE: every one ends with {@code final}, with its own run and gap-free ids. */
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
      for (Future<SseClient.Result> f : all) {
        SseClient.Result r = f.result();
        assertEquals(200, r.status());
        assertEquals("final", r.types().get(r.types().size() - 1), r.types().toString());
        assertTrue(r.last("final").data().getString("answer").contains("[cite:"), r.last("final").data().encode());
        for (int i = 0; i < r.events().size(); i++) {
          assertEquals(i + 1, r.events().get(i).id());
        }
        runIds.add(r.events().get(0).data().getString("runId"));
      }
      assertEquals(50, runIds.size());
    } finally {
      await(vertx.close());
    }
  }
}
