package dev.argus.config;

/**
 * Section {@code embedding}: which embedder is used. {@code provider} is {@code bge-small} (default,
 * bundled), {@code minilm} (bundled, faster, lower quality) or {@code openai} (any OpenAI-compatible
 * {@code /v1/embeddings} endpoint). {@code threads} bundled-model passages are embedded at once (one ONNX Runtime
 * thread each); a query runs on one of those single-threaded sessions too unless {@code queryThreads} (default 1)
 * asks for a session of its own with more threads, as written unless {@code queryInstruction} adds the model's
 * retrieval instruction (bge-small); {@code querySpinning} lets that session's threads spin between operators.
 */
public record EmbeddingConf(String provider, int threads, int batchSize, String baseUrl, String model, String apiKey,
                            int dimension, long timeoutMs, int maxRetries, int queryThreads,
                            boolean queryInstruction, boolean querySpinning) {

  public static final String BGE_SMALL = "bge-small";
  public static final String MINILM = "minilm";
  public static final String OPENAI = "openai";

  public static EmbeddingConf from(Settings s) {
    String provider = s.oneOf("provider", BGE_SMALL, BGE_SMALL, MINILM, OPENAI);
    EmbeddingConf conf = new EmbeddingConf(provider,
        s.intIn("threads", Math.max(1, Runtime.getRuntime().availableProcessors()), 1, 256),
        s.intIn("batchSize", 16, 1, 1024),
        s.string("baseUrl", ""),
        s.string("model", ""),
        s.string("apiKey", ""),
        s.intIn("dimension", 0, 0, 65_536),
        s.longIn("timeoutMs", 30_000, 100, 600_000),
        s.intIn("maxRetries", 3, 0, 20),
        s.intIn("queryThreads", 1, 1, 256),
        s.bool("queryInstruction", false),
        s.bool("querySpinning", false));
    if (OPENAI.equals(provider)) {
      if (conf.baseUrl().isBlank()) {
        throw s.error("baseUrl", "is required when embedding.provider is openai");
      }
      if (conf.model().isBlank()) {
        throw s.error("model", "is required when embedding.provider is openai");
      }
    }
    return conf;
  }

  @Override
  public String toString() {
    return "EmbeddingConf[provider=" + provider + ", model=" + model + ", baseUrl=" + baseUrl + ", apiKey="
        + (apiKey == null || apiKey.isEmpty() ? "" : "***") + "]";
  }
}
