package dev.argus.knowledge;

/** The store holds vectors of another embedding model or dimension than the one configured. */
public final class EmbeddingModelMismatchException extends RuntimeException {
  public EmbeddingModelMismatchException(String storedModel, int storedDimension, String model, int dimension) {
    super("the store holds embeddings of model " + storedModel + " (dimension " + storedDimension
        + ") but the configured embedder is " + model + " (dimension " + dimension
        + "); use the configured model the store was built with, or re-embed deliberately into a new data folder");
  }
}
