package dev.argus.citations;

/**
 * The confidence arithmetic of citation validation, pure and documented:
 * {@code confidence = min(entity, relation) × (1 − penalty × depth)}, status {@code valid} at or above
 * {@code validAt}, {@code flagged} below it, {@code excluded} below {@code excludeBelow}. Results are rounded to six
 * decimals so that exact boundaries (0.5, 0.3) compare as written rather than as binary fractions.
 */
public record Confidence(double depthPenalty, int maxDepth, double validAt, double excludeBelow,
                         double toolSucceeded, double toolFailed, double nothingFound) {

  /** The values of the issue: penalty 0.1 per depth up to 5; valid ≥ 0.5; excluded < 0.3; bases 0.9 / 0.3 / 0.1. */
  public static final Confidence DEFAULT = new Confidence(0.1, 5, 0.5, 0.3, 0.9, 0.3, 0.1);

  public Confidence {
    if (!(depthPenalty >= 0 && depthPenalty * maxDepth < 1)) {
      throw new IllegalArgumentException("depthPenalty × maxDepth must be in [0, 1)");
    }
    if (maxDepth < 0 || maxDepth > 5) {
      throw new IllegalArgumentException("maxDepth must be between 0 and 5 (the graph's path limit)");
    }
    if (!(excludeBelow > 0 && excludeBelow <= validAt && validAt <= 1)) {
      throw new IllegalArgumentException("thresholds must satisfy 0 < excludeBelow <= validAt <= 1");
    }
    for (double base : new double[] {toolSucceeded, toolFailed, nothingFound}) {
      if (!(base >= 0 && base <= 1)) {
        throw new IllegalArgumentException("base confidences must be between 0 and 1");
      }
    }
  }

  /** {@code min(entity, relation) × (1 − depthPenalty × depth)}, rounded to six decimals. */
  public double combine(double entity, double relation, int depth) {
    if (depth < 0 || depth > maxDepth) {
      return 0;
    }
    double factor = 1 - depthPenalty * depth;
    return round(Math.min(entity, relation) * factor);
  }

  public CitationStatus status(double confidence) {
    if (confidence >= validAt) {
      return CitationStatus.VALID;
    }
    return confidence >= excludeBelow ? CitationStatus.FLAGGED : CitationStatus.EXCLUDED;
  }

  static double round(double v) {
    return Math.round(v * 1_000_000d) / 1_000_000d;
  }
}
