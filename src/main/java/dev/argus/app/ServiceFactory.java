package dev.argus.app;

import dev.argus.app.Services;

import dev.argus.config.ArgusConfig;
import dev.argus.app.Embedders;
import dev.argus.app.KnowledgeStores;
import dev.argus.llm.LlmClients;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** Builds the shared {@link Services} from the configuration: database, embedder, stores, LLM client. */
public final class ServiceFactory {

  private ServiceFactory() {
  }

  public static Future<Services> open(Vertx vertx, ArgusConfig conf) {
    return Database.open(vertx, conf).compose(db -> Embedders.create(vertx, conf.embedding())
        .compose(embedder -> KnowledgeStores.create(db, conf)
            .compose(knowledge -> knowledge.checkEmbeddingModel(embedder.modelName(), embedder.dimension())
                .map(v -> new Services(conf, db, embedder, knowledge, LlmClients.create(vertx, conf.llm()))))));
  }
}
