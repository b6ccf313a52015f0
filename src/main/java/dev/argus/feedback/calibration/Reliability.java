package dev.argus.feedback.calibration;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

/**
 * Reliability of confidences against labelled outcomes: five equal-width confidence buckets ([0, 0.2), [0.2, 0.4),
 * [0.4, 0.6), [0.6, 0.8), [0.8, 1.0]), each with its count, mean confidence and accuracy, and the expected calibration
 * error {@code ECE = sum over buckets of (n_b / N) * |accuracy_b - meanConfidence_b|}. The reliability-diagram points
 * are the non-empty buckets' (mean confidence, accuracy) pairs. A pure function of its input.
 */
public record Reliability(List<Bucket> buckets, int total, double ece) {

  public static final int BUCKETS = 5;

  /** One bucket: {@code [lower, upper)} (the last one closed), its count, mean confidence and accuracy (NaN if empty). */
  public record Bucket(double lower, double upper, int count, double meanConfidence, double accuracy) {

    public JsonObject toJson() {
      JsonObject j = new JsonObject().put("lower", lower).put("upper", upper).put("count", count);
      if (count > 0) {
        j.put("meanConfidence", meanConfidence).put("accuracy", accuracy).put("gap", Math.abs(accuracy - meanConfidence));
      }
      return j;
    }
  }

  /** The bucket index of a confidence in 0..1: {@code floor(c * 5)}, with 1.0 in the last bucket. */
  public static int bucketOf(double confidence) {
    return Math.min(BUCKETS - 1, Math.max(0, (int) Math.floor(confidence * BUCKETS)));
  }

  public static Reliability of(List<Outcome> outcomes) {
    return of(outcomes, DoubleUnaryOperator.identity());
  }

  /** Reliability of {@code map(confidence)} (e.g. a calibrator) against the same outcomes. */
  public static Reliability of(List<Outcome> outcomes, DoubleUnaryOperator map) {
    int[] n = new int[BUCKETS];
    double[] conf = new double[BUCKETS];
    int[] right = new int[BUCKETS];
    for (Outcome o : outcomes) {
      double c = map.applyAsDouble(o.confidence());
      int b = bucketOf(c);
      n[b]++;
      conf[b] += c;
      right[b] += o.correct() ? 1 : 0;
    }
    List<Bucket> buckets = new ArrayList<>(BUCKETS);
    double ece = 0;
    int total = outcomes.size();
    for (int b = 0; b < BUCKETS; b++) {
      double mean = n[b] == 0 ? Double.NaN : conf[b] / n[b];
      double acc = n[b] == 0 ? Double.NaN : (double) right[b] / n[b];
      buckets.add(new Bucket((double) b / BUCKETS, (double) (b + 1) / BUCKETS, n[b], mean, acc));
      if (n[b] > 0) {
        ece += (double) n[b] / total * Math.abs(acc - mean);
      }
    }
    return new Reliability(List.copyOf(buckets), total, total == 0 ? Double.NaN : ece);
  }

  /** Overall accuracy (NaN without outcomes). */
  public double accuracy() {
    int right = 0;
    for (Bucket b : buckets) {
      right += b.count() == 0 ? 0 : (int) Math.round(b.accuracy() * b.count());
    }
    return total == 0 ? Double.NaN : (double) right / total;
  }

  public JsonObject toJson() {
    JsonArray bs = new JsonArray();
    JsonArray points = new JsonArray();
    for (Bucket b : buckets) {
      bs.add(b.toJson());
      if (b.count() > 0) {
        points.add(new JsonObject().put("confidence", b.meanConfidence()).put("accuracy", b.accuracy())
            .put("count", b.count()));
      }
    }
    JsonObject j = new JsonObject().put("labels", total).put("buckets", bs).put("reliabilityDiagram", points);
    if (total > 0) {
      j.put("ece", ece).put("accuracy", accuracy());
    } else {
      j.putNull("ece");
    }
    return j;
  }
}
