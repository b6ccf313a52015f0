package dev.argus.testing;

import dev.argus.config.LlmConf;
import dev.argus.config.Settings;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * A fake LLM provider ({@link FakeOpenAiServer}, {@link FakeAnthropicServer}) on the shared {@link FakeHttpServer}
 * scaffolding, with the {@code llm} configuration that points at it.
 *
 * <pre>
 * LlmConf conf = server.llmConf(new JsonObject().put("maxRetries", 0));  // small timeouts for tests
 * LlmClient client = LlmClients.create(vertx, conf);
 * </pre>
 */
public abstract class FakeLlmServer extends FakeHttpServer {

  protected FakeLlmServer(Vertx vertx) {
    super(vertx);
  }

  /** The provider name used in {@link #conf()}. */
  protected abstract String provider();

  /** Configuration of section {@code llm} pointing at this server, with timeouts small enough for tests. */
  public JsonObject conf() {
    return new JsonObject()
        .put("provider", provider())
        .put("baseUrl", baseUrl())
        .put("model", "fake-model")
        .put("apiKey", "test-key")
        .put("timeoutMs", 2000)
        .put("maxRetries", 2)
        .put("retryBaseMs", 10)
        .put("retryMaxMs", 5000)
        .put("maxConcurrent", 4)
        .put("breakerFailures", 5)
        .put("breakerResetMs", 60_000);
  }

  /** {@link #conf()} parsed, with some settings replaced. */
  public LlmConf llmConf(JsonObject overrides) {
    return LlmConf.from(new Settings("llm", conf().mergeIn(overrides == null ? new JsonObject() : overrides)));
  }

  public LlmConf llmConf() {
    return llmConf(null);
  }
}
