package dev.argus.agent;

import dev.argus.Services;
import dev.argus.bus.Addresses;
import dev.argus.knowledge.Chunk;
import dev.argus.knowledge.Document;
import dev.argus.knowledge.ScoredChunk;
import dev.argus.knowledge.SearchFilter;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * INTERIM, test only: serves {@code RETRIEVE_SEARCH} from the real {@code KnowledgeStore} (vector + keyword legs fused
 * by reciprocal rank) until the RetrievalVerticle is on main; and seeds documents through the real embedder and store.
 */
final class StoreBackedRetrieval {

  private StoreBackedRetrieval() {
  }

  static Future<MessageConsumer<JsonObject>> register(Vertx vertx, Services s) {
    MessageConsumer<JsonObject> c = vertx.eventBus().consumer(Addresses.RETRIEVE_SEARCH, msg -> {
      JsonObject req = msg.body();
      int k = req.getInteger("topK", 10);
      SearchFilter filter = SearchFilter.namespace(req.getString("namespace", "default"));
      s.embedder().embedQuery(req.getString("query"))
          .compose(q -> Future.all(s.knowledge().vectorSearch(q, 20, filter),
              s.knowledge().keywordSearch(req.getString("query"), 20, filter)))
          .onSuccess(cf -> {
            Map<String, double[]> fused = new LinkedHashMap<>();
            Map<String, ScoredChunk> byKey = new LinkedHashMap<>();
            for (int leg = 0; leg < 2; leg++) {
              List<ScoredChunk> hits = cf.resultAt(leg);
              for (int r = 0; r < hits.size(); r++) {
                byKey.putIfAbsent(hits.get(r).key(), hits.get(r));
                fused.computeIfAbsent(hits.get(r).key(), x -> new double[1])[0] += 1.0 / (60 + r + 1);
              }
            }
            List<String> keys = new ArrayList<>(fused.keySet());
            keys.sort((a, b) -> Double.compare(fused.get(b)[0], fused.get(a)[0]));
            JsonArray results = new JsonArray();
            for (String key : keys.subList(0, Math.min(k, keys.size()))) {
              ScoredChunk h = byKey.get(key);
              results.add(new JsonObject().put("documentId", h.documentId()).put("namespace", h.namespace())
                  .put("title", h.title()).put("chunkIndex", h.chunkIndex()).put("chunkTotal", h.chunkTotal())
                  .put("text", h.text()).put("score", fused.get(key)[0]).put("metadata", h.metadata())
                  .put("retrievers", new JsonObject()));
            }
            msg.reply(new JsonObject().put("query", req.getString("query")).put("cleanedQuery", req.getString("query"))
                .put("results", results).put("timings", new JsonObject()).put("filters", new JsonObject())
                .put("cached", false));
          })
          .onFailure(err -> msg.fail(500, err.getMessage()));
    });
    return c.completion().map(c);
  }

  /** Stores one document whose chunks are the given texts, embedded by the configured embedder. */
  static Future<Void> seed(Services s, String id, String namespace, String title, String... chunks) {
    return s.embedder().embedPassages(List.of(chunks)).compose(vectors -> {
      List<Chunk> cs = new ArrayList<>();
      for (int i = 0; i < chunks.length; i++) {
        cs.add(new Chunk(id, i, chunks.length, chunks[i], vectors.get(i)));
      }
      Document d = new Document(id, namespace, title, "test", String.join("\n\n", chunks), new JsonObject(),
          Integer.toHexString(String.join("", chunks).hashCode()), chunks.length, null, null);
      return s.knowledge().upsert(d, cs).mapEmpty();
    });
  }
}
