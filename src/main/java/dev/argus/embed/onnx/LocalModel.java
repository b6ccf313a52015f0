package dev.argus.embed.onnx;

import dev.argus.config.EmbeddingConf;

/**
 * The embedding models bundled as Maven artifacts (the ONNX file and the tokenizer are classpath resources of
 * the langchain4j-embeddings-* jars; nothing is downloaded at run time).
 */
public enum LocalModel {

  /** bge-small-en-v1.5, int8-quantized: CLS pooling, queries carry bge's retrieval instruction. */
  BGE_SMALL("bge-small-en-v1.5-q", "/bge-small-en-v1.5-q.onnx", "/bge-small-en-v1.5-q-tokenizer.json",
      Pooling.CLS, "Represent this sentence for searching relevant passages: "),

  /** all-MiniLM-L6-v2, int8-quantized: mean pooling, no query instruction. Faster, lower quality. */
  MINILM("all-minilm-l6-v2-q", "/all-minilm-l6-v2-q.onnx", "/all-minilm-l6-v2-q-tokenizer.json",
      Pooling.MEAN, "");

  /** How token vectors become one text vector. */
  public enum Pooling { CLS, MEAN }

  public static final int DIMENSION = 384;

  private final String modelName;
  private final String modelResource;
  private final String tokenizerResource;
  private final Pooling pooling;
  private final String queryPrefix;

  LocalModel(String modelName, String modelResource, String tokenizerResource, Pooling pooling, String queryPrefix) {
    this.modelName = modelName;
    this.modelResource = modelResource;
    this.tokenizerResource = tokenizerResource;
    this.pooling = pooling;
    this.queryPrefix = queryPrefix;
  }

  /** The model for an {@code embedding.provider} value ({@code bge-small} or {@code minilm}). */
  public static LocalModel forProvider(String provider) {
    return switch (provider) {
      case EmbeddingConf.BGE_SMALL -> BGE_SMALL;
      case EmbeddingConf.MINILM -> MINILM;
      default -> throw new IllegalArgumentException("not a bundled embedding model: " + provider);
    };
  }

  public String modelName() {
    return modelName;
  }

  public String modelResource() {
    return modelResource;
  }

  public String tokenizerResource() {
    return tokenizerResource;
  }

  public Pooling pooling() {
    return pooling;
  }

  public String queryPrefix() {
    return queryPrefix;
  }
}
