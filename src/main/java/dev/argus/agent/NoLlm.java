package dev.argus.agent;

import dev.argus.llm.ChatRequest;
import dev.argus.llm.ChatResult;
import dev.argus.llm.LlmClient;
import dev.argus.llm.LlmUnavailableException;
import io.vertx.core.Future;

import java.util.function.Consumer;

/** Stand-in when the process has no {@link LlmClient}: disabled, so every phase takes its rule-based path. */
final class NoLlm implements LlmClient {

  @Override
  public String provider() {
    return "none";
  }

  @Override
  public boolean enabled() {
    return false;
  }

  @Override
  public Future<ChatResult> chat(ChatRequest request) {
    return Future.failedFuture(new LlmUnavailableException("no LLM configured"));
  }

  @Override
  public Future<ChatResult> stream(ChatRequest request, Consumer<String> onToken) {
    return chat(request);
  }
}
