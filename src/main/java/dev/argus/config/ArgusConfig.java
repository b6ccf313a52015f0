package dev.argus.config;

import io.vertx.core.json.JsonObject;

import java.nio.file.Path;
import java.util.Map;

/**
 * The validated configuration of one Argus process. Built once at start from {@code conf/argus.json}
 * plus environment overrides; every section is parsed by its record's {@code from(Settings)}, so a wrong value
 * throws {@link ConfigException} naming the setting before anything starts. {@code MainVerticle} hands each
 * verticle its own section record (and the services it uses) through the verticle's constructor; verticles never
 * read the whole configuration.
 */
public record ArgusConfig(JsonObject raw, HttpConf http, DataConf data, StoreConf store, PgConf pg, IngestConf ingest,
                          EmbeddingConf embedding, RetrievalConf retrieval, LlmConf llm,
                          AgentConf agent, RecordsConf records, GraphConf graph, CitationsConf citations,
                          ObserveConf observe, EvalConf eval, DecideConf decide, AuthConf auth, BridgeConf bridge,
                          FeedbackConf feedback, BacktestConf backtest,
                          AdversarialConf adversarial, ClusterConf cluster) {

  public ArgusConfig {
    cluster.checkStore(store);
  }

  public static final Path DEFAULT_FILE = Path.of("conf", "argus.json");

  public static ArgusConfig load(Path file, Map<String, String> env) {
    return from(ConfigLoader.load(file, env));
  }

  public static ArgusConfig from(JsonObject root) {
    return new ArgusConfig(root,
        HttpConf.from(Settings.of(root, "http")),
        DataConf.from(Settings.of(root, "data")),
        StoreConf.from(Settings.of(root, "store")),
        PgConf.from(Settings.of(root, "pg")),
        IngestConf.from(Settings.of(root, "ingest")),
        EmbeddingConf.from(Settings.of(root, "embedding")),
        RetrievalConf.from(Settings.of(root, "retrieval")),
        LlmConf.from(Settings.of(root, "llm")),
        AgentConf.from(Settings.of(root, "agent")),
        RecordsConf.from(Settings.of(root, "records")),
        GraphConf.from(Settings.of(root, "graph")),
        CitationsConf.from(Settings.of(root, "citations")),
        ObserveConf.from(Settings.of(root, "observe")),
        EvalConf.from(Settings.of(root, "eval")),
        DecideConf.from(Settings.of(root, "decide")),
        AuthConf.from(Settings.of(root, "auth")),
        BridgeConf.from(Settings.of(root, "bridge")),
        FeedbackConf.from(Settings.of(root, "feedback")),
        BacktestConf.from(Settings.of(root, "backtest")),
        AdversarialConf.from(Settings.of(root, "adversarial")),
        ClusterConf.from(Settings.of(root, "cluster")));
  }

  /** The raw JSON of one section (empty when absent), e.g. to write a derived configuration file. */
  public JsonObject section(String name) {
    JsonObject s = raw.getJsonObject(name);
    return s == null ? new JsonObject() : s.copy();
  }

  /** A copy with some settings replaced, e.g. {@code with("http", "port", 0)} in tests. */
  public ArgusConfig with(String section, String key, Object value) {
    JsonObject copy = raw.copy();
    JsonObject s = copy.getJsonObject(section);
    if (s == null) {
      s = new JsonObject();
      copy.put(section, s);
    }
    s.put(key, value);
    return from(copy);
  }
}
