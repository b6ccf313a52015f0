package dev.argus.config;

/**
 * Section {@code ingest}: parsing, chunking, batching and limits. {@code samplesPath} is the classpath folder
 * whose {@code index.txt} lists the sample knowledge base loaded at first start when {@code loadSamples}. Finished
 * ingestion jobs are kept (and answer {@code GET /api/ingest/jobs/{id}}) for {@code jobRetentionHours}.
 */
public record IngestConf(int chunkTargetChars, int chunkMaxChars, int overlapSentences, long maxFileBytes,
                         int maxDocumentChars, int embedBatchSize, long asyncThresholdBytes, boolean loadSamples,
                         String samplesNamespace, String samplesPath, int jobRetentionHours) {

  public static IngestConf from(Settings s) {
    int target = s.intIn("chunkTargetChars", 1000, 50, 100_000);
    int max = s.intIn("chunkMaxChars", 2000, 50, 200_000);
    if (max < target) {
      throw s.error("chunkMaxChars", "must be at least chunkTargetChars (" + target + "), got " + max);
    }
    return new IngestConf(target, max,
        s.intIn("overlapSentences", 2, 0, 20),
        s.longIn("maxFileBytes", 5L * 1024 * 1024, 1024, 1L << 31),
        s.intIn("maxDocumentChars", 2_000_000, 1, Integer.MAX_VALUE),
        s.intIn("embedBatchSize", 32, 1, 1024),
        s.longIn("asyncThresholdBytes", 64 * 1024, 0, 1L << 31),
        s.bool("loadSamples", true),
        s.nonBlank("samplesNamespace", "default"),
        s.nonBlank("samplesPath", "samples"),
        s.intIn("jobRetentionHours", 168, 1, 100_000));
  }
}
