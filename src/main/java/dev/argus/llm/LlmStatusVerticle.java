package dev.argus.llm;

import dev.argus.bus.Addresses;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;

/** Answers {@link Addresses#LLM_STATUS} with the provider, breaker state and counters, for {@code /api/health}. */
public final class LlmStatusVerticle extends VerticleBase {

  private final LlmClient client;

  public LlmStatusVerticle(LlmClient client) {
    this.client = client;
  }

  @Override
  public Future<?> start() {
    MessageConsumer<JsonObject> consumer = vertx.eventBus().consumer(Addresses.LLM_STATUS,
        msg -> msg.reply(status(client)));
    return consumer.completion();
  }

  /** {@code {provider, enabled, model?, breaker?, active?, stats}}. */
  public static JsonObject status(LlmClient client) {
    JsonObject json = new JsonObject().put("provider", client.provider()).put("enabled", client.enabled());
    if (client instanceof HttpChatClient http) {
      json.put("model", http.conf.model())
          .put("breaker", http.breakerState())
          .put("active", http.transport.active());
    }
    return json.put("stats", client.stats().toJson());
  }
}
