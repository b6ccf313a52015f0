package dev.argus.config;

/**
 * Section {@code llm}: the chat model provider used by the agent phases. {@code provider} is {@code none}
 * (default: every phase uses its rule-based path), {@code openai} (any OpenAI-compatible
 * {@code /v1/chat/completions} endpoint: OpenAI, vLLM, Ollama, llama.cpp server, LM Studio) or
 * {@code anthropic} (Messages API). {@code apiKey} is usually given by env {@code ARGUS_LLM_API_KEY}; it is
 * never logged and {@link #toString()} redacts it.
 */
public record LlmConf(String provider, String baseUrl, String model, String apiKey, long timeoutMs, int maxRetries,
                      long retryBaseMs, long retryMaxMs, int maxConcurrent, int maxQueued, int breakerFailures,
                      long breakerResetMs, double temperature, int maxTokens) {

  public static final String NONE = "none";
  public static final String OPENAI = "openai";
  public static final String ANTHROPIC = "anthropic";

  public static LlmConf from(Settings s) {
    String provider = s.oneOf("provider", NONE, NONE, OPENAI, ANTHROPIC);
    LlmConf conf = new LlmConf(provider,
        s.string("baseUrl", ""),
        s.string("model", ""),
        s.string("apiKey", ""),
        s.longIn("timeoutMs", 60_000, 50, 600_000),
        s.intIn("maxRetries", 2, 0, 10),
        s.longIn("retryBaseMs", 500, 1, 60_000),
        s.longIn("retryMaxMs", 30_000, 1, 600_000),
        s.intIn("maxConcurrent", 8, 1, 1024),
        s.intIn("maxQueued", 256, 0, 100_000),
        s.intIn("breakerFailures", 5, 1, 1000),
        s.longIn("breakerResetMs", 30_000, 10, 3_600_000),
        s.doubleIn("temperature", 0.2, 0.0, 2.0),
        s.intIn("maxTokens", 1024, 1, 1_000_000));
    if (!NONE.equals(provider)) {
      if (conf.baseUrl().isBlank()) {
        throw s.error("baseUrl", "is required when llm.provider is " + provider);
      }
      if (!conf.baseUrl().startsWith("http://") && !conf.baseUrl().startsWith("https://")) {
        throw s.error("baseUrl", "must start with http:// or https://, got '" + conf.baseUrl() + "'");
      }
      if (conf.model().isBlank()) {
        throw s.error("model", "is required when llm.provider is " + provider);
      }
    }
    return conf;
  }

  /** True when a provider is configured. */
  public boolean enabled() {
    return !NONE.equals(provider);
  }

  @Override
  public String toString() {
    return "LlmConf[provider=" + provider + ", baseUrl=" + baseUrl + ", model=" + model + ", apiKey="
        + (apiKey == null || apiKey.isEmpty() ? "" : "***") + ", timeoutMs=" + timeoutMs + ", maxRetries="
        + maxRetries + ", maxConcurrent=" + maxConcurrent + ", breakerFailures=" + breakerFailures + "]";
  }
}
