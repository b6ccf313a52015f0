package dev.argus.llm;

import io.vertx.core.Future;

import java.util.function.Consumer;

/**
 * A chat model provider: OpenAI-compatible chat completions, Anthropic Messages, or {@code none}.
 * Calls are asynchronous (never blocking an event loop) and complete on the caller's Vert.x context.
 * Implementations apply timeout, retry with backoff and jitter (honouring Retry-After), a circuit breaker and
 * a cap on concurrent requests. When the provider is unavailable the future fails with
 * {@link LlmUnavailableException}, and callers fall back to their rule-based path.
 */
public interface LlmClient {

  /** {@code openai}, {@code anthropic} or {@code none}. */
  String provider();

  /** False for {@code none}: callers go straight to their rule-based fallback. */
  boolean enabled();

  /** One completion, not streamed. */
  Future<ChatResult> chat(ChatRequest request);

  /** One completion, streamed: {@code onToken} receives text deltas in order (on the caller's context). */
  Future<ChatResult> stream(ChatRequest request, Consumer<String> onToken);

  /** Counters of this client (calls, retries, failures, structured-output repairs...). */
  default LlmStats stats() {
    return LlmStats.UNTRACKED;
  }

  /** Releases connections and threads. */
  default Future<Void> close() {
    return Future.succeededFuture();
  }
}
