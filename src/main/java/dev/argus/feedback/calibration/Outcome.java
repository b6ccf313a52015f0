package dev.argus.feedback.calibration;

/**
 * One labelled outcome: the confidence a decision was made with (0..1, the probability it claimed of being right) and
 * whether an analyst (or a closed case) found it correct.
 */
public record Outcome(double confidence, boolean correct) {

  public Outcome {
    if (!(confidence >= 0 && confidence <= 1)) {
      throw new IllegalArgumentException("confidence must be within 0..1, got " + confidence);
    }
  }
}
