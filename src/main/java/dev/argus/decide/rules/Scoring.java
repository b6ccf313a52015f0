package dev.argus.decide.rules;

import dev.argus.decide.model.ScoringModel;
import dev.argus.decide.model.SignalSpec;
import dev.argus.decide.model.Verdict;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The transparent scoring model, a pure function. For the known signals K (raw value measured):
 * <pre>
 *   scaled_i       = clamp((raw_i - low_i) / (high_i - low_i), 0, 1)
 *   contribution_i = 100 * weight_i * scaled_i / sum_{j in K} weight_j
 *   riskScore      = sum_i contribution_i                                   (0..100)
 *   coverage       = sum_{j in K} weight_j / sum_{all j} weight_j            (how much of the model was measured)
 *   decisiveness   = min(1, distance of riskScore to the nearest threshold / 15)
 *   confidence     = coverage * (0.5 + 0.5 * decisiveness)
 * </pre>
 * That is the {@code mean} combination. With {@code combine: accumulate} (the live models) evidence adds up instead of
 * being averaged, so one strong indicator is not diluted by the many signals a subject is clean on:
 * <pre>
 *   evidence_i     = weight_i * scaled_i                                    (weight: evidence units at full strength)
 *   riskScore      = 100 * (1 - exp(-sum_i evidence_i))                     (0..100; 1 unit → 63, 2 → 86, 3 → 95)
 *   contribution_i = riskScore * evidence_i / sum_j evidence_j              (the score split in proportion)
 * </pre>
 * Unknown signals contribute nothing and lower the coverage, so missing evidence lowers the confidence and never
 * pulls the score towards approval on its own.
 */
public final class Scoring {

  /** Points of distance from a threshold at which a score counts as fully decisive. */
  public static final double DECISIVE_DISTANCE = 15.0;

  private Scoring() {
  }

  public record Result(double riskScore, Verdict verdict, double coverage, double confidence, List<Signal> signals) {
  }

  public static Result score(ScoringModel model, Map<String, RawSignal> raw) {
    double knownWeight = 0;
    for (SignalSpec spec : model.orderedSignals()) {
      RawSignal r = raw.get(spec.from());
      if (r != null && r.value() != null) {
        knownWeight += spec.weight();
      }
    }
    if (model.accumulates()) {
      return accumulate(model, raw, knownWeight);
    }
    List<Signal> out = new ArrayList<>();
    double score = 0;
    for (SignalSpec spec : model.orderedSignals()) {
      RawSignal r = raw.get(spec.from());
      if (r == null || r.value() == null) {
        out.add(new Signal(spec.name(), null, 0, spec.weight(), 0, r == null ? null : r.cite(), spec.tool(),
            spec.domain(), r == null ? "not measured" : r.note()));
        continue;
      }
      double scaled = round(spec.scale(r.value()), 4);
      double contribution = knownWeight == 0 ? 0 : round(100 * spec.weight() * scaled / knownWeight, 2);
      score += knownWeight == 0 ? 0 : 100 * spec.weight() * scaled / knownWeight;
      out.add(new Signal(spec.name(), r.value(), scaled, spec.weight(), contribution, r.cite(), spec.tool(),
          spec.domain(), r.note()));
    }
    double riskScore = round(score, 2);
    double total = model.totalWeight();
    double coverage = total == 0 ? 0 : round(knownWeight / total, 4);
    double confidence = confidence(model, riskScore, coverage);
    return new Result(riskScore, model.verdictOf(riskScore), coverage, confidence, out);
  }

  private static Result accumulate(ScoringModel model, Map<String, RawSignal> raw, double knownWeight) {
    double evidence = 0;
    for (SignalSpec spec : model.orderedSignals()) {
      RawSignal r = raw.get(spec.from());
      if (r != null && r.value() != null) {
        evidence += spec.weight() * round(spec.scale(r.value()), 4);
      }
    }
    double exact = 100 * (1 - Math.exp(-evidence));
    List<Signal> out = new ArrayList<>();
    for (SignalSpec spec : model.orderedSignals()) {
      RawSignal r = raw.get(spec.from());
      if (r == null || r.value() == null) {
        out.add(new Signal(spec.name(), null, 0, spec.weight(), 0, r == null ? null : r.cite(), spec.tool(),
            spec.domain(), r == null ? "not measured" : r.note()));
        continue;
      }
      double scaled = round(spec.scale(r.value()), 4);
      double contribution = evidence == 0 ? 0 : round(exact * spec.weight() * scaled / evidence, 2);
      out.add(new Signal(spec.name(), r.value(), scaled, spec.weight(), contribution, r.cite(), spec.tool(),
          spec.domain(), r.note()));
    }
    double riskScore = round(exact, 2);
    double total = model.totalWeight();
    double coverage = total == 0 ? 0 : round(knownWeight / total, 4);
    return new Result(riskScore, model.verdictOf(riskScore), coverage, confidence(model, riskScore, coverage), out);
  }

  /** {@code 100 * (1 - exp(-evidence))}: the accumulated risk of {@code evidence} units. */
  public static double accumulated(double evidence) {
    return 100 * (1 - Math.exp(-evidence));
  }

  public static double confidence(ScoringModel model, double riskScore, double coverage) {
    double distance = Math.min(Math.abs(riskScore - model.reviewThreshold()),
        Math.abs(riskScore - model.rejectThreshold()));
    double decisiveness = Math.min(1, distance / DECISIVE_DISTANCE);
    return round(coverage * (0.5 + 0.5 * decisiveness), 4);
  }

  public static double round(double v, int places) {
    double f = Math.pow(10, places);
    return Math.round(v * f) / f;
  }
}
