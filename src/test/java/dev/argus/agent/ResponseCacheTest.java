package dev.argus.agent;

import dev.argus.bus.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Identical normalised questions in the same namespace are answered from the cache until knowledge changes. */
class ResponseCacheTest {

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  @Test
  void cachedUntilTheNamespaceChanges() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      AgentHarness app = await(AgentHarness.start(vertx, AgentHarness.config(), Corpus.standard()));
      BusFault retrieval = BusFault.on(vertx, Addresses.RETRIEVE_SEARCH); // counts the searches reaching the retriever
      SseClient sse = new SseClient(vertx, app.port());
      SseClient.Result first = await(sse.post("/api/chat", new JsonObject().put("question", "How long do refunds take?"), null));
      assertFalse(first.last("final").data().getBoolean("cached"));
      int searches = retrieval.requests.get();

      // same question, other case, spacing and punctuation: from the cache, no phases, no search
      SseClient.Result second = await(sse.post("/api/chat", new JsonObject().put("question", "  how LONG do refunds   take "), null));
      JsonObject fin = second.last("final").data();
      assertTrue(fin.getBoolean("cached"));
      assertEquals(first.last("final").data().getString("answer"), fin.getString("answer"));
      assertEquals(first.last("final").data().getJsonArray("citations"), fin.getJsonArray("citations"));
      assertTrue(second.all("phase").isEmpty());
      assertEquals(searches, retrieval.requests.get());
      assertEquals(first.last("final").data().getString("answer"), second.all("token").get(0).data().getString("text"));
      assertTrue(fin.getString("runId").equals(second.events().get(0).data().getString("runId")));

      // a change in another namespace keeps it; a change in this one drops it
      vertx.eventBus().publish(Addresses.KNOWLEDGE_CHANGED, new JsonObject().put("namespace", "other")
          .put("documentId", "x").put("change", "upsert"));
      SseClient.Result third = await(sse.post("/api/chat", new JsonObject().put("question", "How long do refunds take?"), null));
      assertTrue(third.last("final").data().getBoolean("cached"));
      vertx.eventBus().publish(Addresses.KNOWLEDGE_CHANGED, new JsonObject().put("namespace", "default")
          .put("documentId", "refund-policy").put("change", "upsert"));
      SseClient.Result fourth = await(sse.post("/api/chat", new JsonObject().put("question", "How long do refunds take?"), null));
      assertFalse(fourth.last("final").data().getBoolean("cached"));
      assertEquals(searches + 1, retrieval.requests.get());
    } finally {
      await(vertx.close());
    }
  }
}
