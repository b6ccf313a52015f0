package dev.argus.app;

import dev.argus.embed.Embedder;
import dev.argus.config.EmbeddingConf;
import dev.argus.embed.onnx.LocalModel;
import dev.argus.embed.onnx.OnnxEmbedder;
import dev.argus.embed.openai.OpenAiEmbedder;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * Creates the configured {@link Embedder}: {@code bge-small} / {@code minilm} load the bundled ONNX model on a
 * worker thread; {@code openai} connects to the configured endpoint (with a dimension probe when
 * {@code embedding.dimension} is 0). The returned future completes once the embedder is ready.
 */
public final class Embedders {

  private Embedders() {
  }

  public static Future<Embedder> create(Vertx vertx, EmbeddingConf conf) {
    return switch (conf.provider()) {
      case EmbeddingConf.BGE_SMALL, EmbeddingConf.MINILM ->
          OnnxEmbedder.load(vertx, LocalModel.forProvider(conf.provider()), conf.threads(), conf.batchSize(), 1, 1,
              conf.queryThreads(), conf.queryInstruction(), conf.querySpinning());
      case EmbeddingConf.OPENAI -> OpenAiEmbedder.connect(vertx, conf);
      default -> Future.failedFuture(new IllegalArgumentException("unknown embedding.provider " + conf.provider()));
    };
  }
}
