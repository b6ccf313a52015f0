package dev.argus.app;

import dev.argus.common.Fingerprinter;
import dev.argus.config.ArgusConfig;
import dev.argus.embed.Embedder;
import dev.argus.knowledge.KnowledgeStore;
import dev.argus.llm.LlmClient;
import dev.argus.store.Database;
import io.vertx.core.Future;

/**
 * The plain-Java services one process shares: thread-safe clients over the database, the embedder and the LLM provider.
 * Verticles are thin adapters over these; they receive them through their constructors. {@code fingerprinter} makes the
 * keyed fingerprints of sensitive identifiers (its key: {@code records.fingerprintKey} or the key file, see README).
 */
public record Services(ArgusConfig config, Database database, Embedder embedder, KnowledgeStore knowledge, LlmClient llm,
                       Fingerprinter fingerprinter) {

  public Future<Void> close() {
    return Future.join(knowledge.close(), embedder.close(), llm.close()).compose(v -> database.close()).mapEmpty();
  }
}
