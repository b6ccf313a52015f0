package dev.argus.app;

import dev.argus.common.FingerprintKeys;
import dev.argus.common.Fingerprinter;
import dev.argus.config.ArgusConfig;
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
                .compose(v -> fingerprinter(vertx, conf))
                .map(fp -> new Services(conf, db, embedder, knowledge, llm(vertx, conf), fp)))));
  }

  /** The configured LLM client, its counters and latency published as meters. */
  private static dev.argus.llm.LlmClient llm(Vertx vertx, ArgusConfig conf) {
    dev.argus.llm.LlmClient llm = LlmClients.create(vertx, conf.llm());
    dev.argus.metrics.LlmMeters.bind(vertx, conf.llm().provider(), llm.stats());
    return llm;
  }

  /** The fingerprinter with the configured key, or the data folder's key file (created once); file I/O off the loop. */
  public static Future<Fingerprinter> fingerprinter(Vertx vertx, ArgusConfig conf) {
    String file = conf.records().fingerprintKeyFile();
    return vertx.executeBlocking(() -> new Fingerprinter(FingerprintKeys.load(conf.records().fingerprintKey(),
        file.isBlank() ? conf.data().dir().resolve("fingerprint.key") : java.nio.file.Path.of(file))), false);
  }
}
