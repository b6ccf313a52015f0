package dev.argus.retrieval;

import dev.argus.bus.Addresses;
import dev.argus.bus.BusFailures;
import dev.argus.config.RetrievalConf;
import dev.argus.embed.Embedder;
import dev.argus.knowledge.KnowledgeStore;
import dev.argus.metrics.ArgusMeters;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;

/**
 * Thin adapter of {@link SearchService} on the bus: answers {@link Addresses#RETRIEVE_SEARCH} ({@link
 * SearchRequest} in, {@link SearchResponse} out, failures as {@code {error, code}} with the HTTP status) and
 * invalidates the retrieval cache on {@link Addresses#KNOWLEDGE_CHANGED}. Takes its section
 * record and the services it uses.
 */
public final class RetrievalVerticle extends VerticleBase {

  private final RetrievalConf conf;
  private final int maxQueryChars;
  private final KnowledgeStore knowledge;
  private final Embedder embedder;
  private SearchService service;

  public RetrievalVerticle(RetrievalConf conf, int maxQueryChars, KnowledgeStore knowledge, Embedder embedder) {
    this.conf = conf;
    this.maxQueryChars = maxQueryChars;
    this.knowledge = knowledge;
    this.embedder = embedder;
  }

  @Override
  public Future<?> start() {
    service = SearchService.create(knowledge, embedder, conf);
    MessageConsumer<JsonObject> search = vertx.eventBus().consumer(Addresses.RETRIEVE_SEARCH, msg -> {
      SearchRequest request;
      try {
        request = SearchRequest.fromJson(msg.body(), conf, maxQueryChars);
      } catch (RuntimeException e) {
        BusFailures.fail(msg, e);
        return;
      }
      service.search(request)
          .onSuccess(response -> {
            record(response);
            msg.reply(response.toJson());
          })
          .onFailure(err -> BusFailures.fail(msg, err));
    });
    MessageConsumer<JsonObject> changes = vertx.eventBus().consumer(Addresses.KNOWLEDGE_CHANGED,
        msg -> service.onKnowledgeChanged(msg.body()));
    return Future.all(search.completion(), changes.completion());
  }

  /** Search latency per leg into the process meters (a cached answer counts, its stale timings do not). */
  private void record(SearchResponse response) {
    Timings t = response.timings();
    java.util.Map<String, Double> legs = new java.util.LinkedHashMap<>();
    legs.put("self_query", t.selfQueryMs());
    legs.put("embed", t.embedMs());
    legs.put("vector", t.vectorMs());
    legs.put("keyword", t.keywordMs());
    legs.put("trigram", t.trigramMs());
    legs.put("fusion", t.fusionMs());
    legs.put("expand", t.expandMs());
    legs.put("total", t.totalMs());
    ArgusMeters.search(vertx, legs, response.cached());
  }

  /** The service behind the consumer (for tests and in-process callers). */
  public SearchService service() {
    return service;
  }
}
