package dev.argus.retrieval;

import dev.argus.app.Services;
import dev.argus.bus.Addresses;
import dev.argus.bus.BusFailures;
import dev.argus.config.RetrievalConf;
import dev.argus.config.Settings;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;

/**
 * Thin adapter of {@link SearchService} on the bus: answers {@link Addresses#RETRIEVE_SEARCH} ({@link
 * SearchRequest} in, {@link SearchResponse} out, failures as {@code {error, code}} with the HTTP status) and
 * invalidates the retrieval cache on {@link Addresses#KNOWLEDGE_CHANGED}. Deploy one instance with the
 * {@code retrieval} configuration section.
 */
public final class RetrievalVerticle extends VerticleBase {

  private final Services services;
  private SearchService service;

  public RetrievalVerticle(Services services) {
    this.services = services;
  }

  @Override
  public Future<?> start() {
    RetrievalConf conf = config().isEmpty() ? services.config().retrieval()
        : RetrievalConf.from(new Settings("retrieval", config()));
    int maxQueryChars = services.config().http().maxQueryChars();
    service = SearchService.create(services.knowledge(), services.embedder(), conf);
    MessageConsumer<JsonObject> search = vertx.eventBus().consumer(Addresses.RETRIEVE_SEARCH, msg -> {
      SearchRequest request;
      try {
        request = SearchRequest.fromJson(msg.body(), conf, maxQueryChars);
      } catch (RuntimeException e) {
        BusFailures.fail(msg, e);
        return;
      }
      service.search(request)
          .onSuccess(response -> msg.reply(response.toJson()))
          .onFailure(err -> BusFailures.fail(msg, err));
    });
    MessageConsumer<JsonObject> changes = vertx.eventBus().consumer(Addresses.KNOWLEDGE_CHANGED,
        msg -> service.onKnowledgeChanged(msg.body()));
    return Future.all(search.completion(), changes.completion());
  }

  /** The service behind the consumer (for tests and in-process callers). */
  public SearchService service() {
    return service;
  }
}
