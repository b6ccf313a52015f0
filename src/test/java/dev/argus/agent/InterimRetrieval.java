package dev.argus.agent;

import dev.argus.agent.compose.Text;
import dev.argus.bus.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * INTERIM, test only: answers {@code RETRIEVE_SEARCH} and {@code CHUNK_NEIGHBOURS} per the bus contract from a small
 * in-memory corpus with term-overlap scoring, until the real RetrievalVerticle and knowledge store are on main. It also
 * injects faults (failures, delays) so that Act's retry and re-plan paths can be exercised.
 */
final class InterimRetrieval {

  record Doc(String id, String title, String namespace, List<String> chunks) {
  }

  final List<Doc> docs = new ArrayList<>();
  final AtomicInteger searches = new AtomicInteger();
  volatile int failNext;
  volatile int failCode = 503;
  volatile long delayMs;
  private final List<MessageConsumer<JsonObject>> consumers = new ArrayList<>();

  InterimRetrieval add(String id, String title, String... chunks) {
    docs.add(new Doc(id, title, "default", List.of(chunks)));
    return this;
  }

  Future<Void> register(Vertx vertx) {
    MessageConsumer<JsonObject> search = vertx.eventBus().consumer(Addresses.RETRIEVE_SEARCH, msg -> {
      searches.incrementAndGet();
      if (failNext > 0) {
        failNext--;
        msg.fail(failCode, new JsonObject().put("error", "injected failure").put("code", "unavailable").encode());
        return;
      }
      Runnable answer = () -> msg.reply(search(msg.body()));
      if (delayMs > 0) {
        vertx.setTimer(delayMs, id -> answer.run());
      } else {
        answer.run();
      }
    });
    MessageConsumer<JsonObject> neighbours = vertx.eventBus().consumer(Addresses.CHUNK_NEIGHBOURS, msg -> {
      if (delayMs > 0) {
        vertx.setTimer(delayMs, id -> msg.reply(neighbours(msg.body())));
      } else {
        msg.reply(neighbours(msg.body()));
      }
    });
    consumers.add(search);
    consumers.add(neighbours);
    return Future.all(search.completion(), neighbours.completion()).mapEmpty();
  }

  JsonObject neighbours(JsonObject b) {
      JsonArray out = new JsonArray();
      for (Doc d : docs) {
        if (d.id().equals(b.getString("documentId"))) {
          int idx = b.getInteger("index");
          for (int i = Math.max(0, idx - b.getInteger("before", 1)); i <= Math.min(d.chunks().size() - 1,
              idx + b.getInteger("after", 1)); i++) {
            out.add(new JsonObject().put("documentId", d.id()).put("index", i).put("total", d.chunks().size())
                .put("text", d.chunks().get(i)));
          }
        }
      }
    return new JsonObject().put("chunks", out);
  }

  JsonObject search(JsonObject req) {
    Set<String> q = Text.contentTokens(req.getString("query"));
    int topK = req.getInteger("topK", 10);
    String ns = req.getString("namespace", "default");
    record Hit(Doc d, int i, double s) {
    }
    List<Hit> hits = new ArrayList<>();
    for (Doc d : docs) {
      if (!d.namespace().equals(ns)) {
        continue;
      }
      for (int i = 0; i < d.chunks().size(); i++) {
        double s = Text.coverage(q, Text.contentTokens(d.title() + " " + d.chunks().get(i)));
        if (s > 0) {
          hits.add(new Hit(d, i, s));
        }
      }
    }
    hits.sort(Comparator.comparingDouble(Hit::s).reversed());
    JsonArray results = new JsonArray();
    for (Hit h : hits.subList(0, Math.min(topK, hits.size()))) {
      results.add(new JsonObject().put("documentId", h.d().id()).put("namespace", ns).put("title", h.d().title())
          .put("chunkIndex", h.i()).put("chunkTotal", h.d().chunks().size()).put("text", h.d().chunks().get(h.i()))
          .put("score", h.s()).put("metadata", new JsonObject())
          .put("retrievers", new JsonObject().put("keyword", new JsonObject().put("rank", results.size() + 1)
              .put("score", h.s()))));
    }
    return new JsonObject().put("query", req.getString("query")).put("cleanedQuery", req.getString("query"))
        .put("results", results).put("timings", new JsonObject()).put("filters", new JsonObject()).put("cached", false);
  }
}
