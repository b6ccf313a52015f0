package dev.argus.llm;

import io.vertx.core.Future;

import java.util.function.Consumer;

/** Provider {@code none}: not enabled, every call fails with {@link LlmUnavailableException}. */
public final class NoLlmClient implements LlmClient {

  private final LlmStats stats;

  public NoLlmClient(LlmStats stats) {
    this.stats = stats;
  }

  public NoLlmClient() {
    this(new LlmStats());
  }

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
    return Future.failedFuture(new LlmUnavailableException("no LLM configured"));
  }

  @Override
  public LlmStats stats() {
    return stats;
  }

  @Override
  public String toString() {
    return "NoLlmClient";
  }
}
