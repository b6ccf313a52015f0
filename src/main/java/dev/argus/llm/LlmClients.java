package dev.argus.llm;

import dev.argus.config.LlmConf;
import io.vertx.core.Vertx;

/** Builds the configured {@link LlmClient}: OpenAI-compatible, Anthropic, or none. */
public final class LlmClients {

  private LlmClients() {
  }

  public static LlmClient create(Vertx vertx, LlmConf conf) {
    return create(vertx, conf, new LlmStats());
  }

  public static LlmClient create(Vertx vertx, LlmConf conf, LlmStats stats) {
    return switch (conf.provider()) {
      case LlmConf.OPENAI -> new OpenAiChatClient(vertx, conf, stats);
      case LlmConf.ANTHROPIC -> new AnthropicClient(vertx, conf, stats);
      default -> new NoLlmClient(stats);
    };
  }
}
