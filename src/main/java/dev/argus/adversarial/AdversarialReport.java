package dev.argus.adversarial;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The report of an adversarial run, a pure function of its findings: per scenario type (and per technique) how many
 * scenarios were planted, detected, missed and could not be probed, and the detection rate
 * {@code detected / (detected + missed)} (null when nothing could be judged); every miss is a vulnerability with the
 * type's severity; the vulnerabilities are counted by severity. Types of the suite that planted nothing are listed
 * with zeros, so a report says what was asked for.
 */
public final class AdversarialReport {

  private AdversarialReport() {
  }

  public static JsonObject of(List<ScenarioType> suite, List<Finding> findings) {
    Map<ScenarioType, Counts> byType = new EnumMap<>(ScenarioType.class);
    Map<ScenarioType, Map<String, Counts>> byTechnique = new EnumMap<>(ScenarioType.class);
    suite.forEach(t -> byType.put(t, new Counts()));
    Counts total = new Counts();
    Map<ScenarioType.Severity, Integer> severities = new EnumMap<>(ScenarioType.Severity.class);
    for (ScenarioType.Severity s : ScenarioType.Severity.values()) {
      severities.put(s, 0);
    }
    JsonArray vulnerabilities = new JsonArray();
    for (Finding f : findings) {
      byType.computeIfAbsent(f.type(), t -> new Counts()).add(f.status());
      byTechnique.computeIfAbsent(f.type(), t -> new TreeMap<>()).computeIfAbsent(f.technique(), t -> new Counts())
          .add(f.status());
      total.add(f.status());
      if (f.status() == Finding.Status.MISSED) {
        ScenarioType.Severity sev = f.type().missSeverity();
        severities.merge(sev, 1, Integer::sum);
        vulnerabilities.add(f.toJson().put("severity", sev.wire()));
      }
    }
    JsonObject types = new JsonObject();
    byType.forEach((type, c) -> {
      JsonObject t = c.toJson();
      JsonObject techniques = new JsonObject();
      byTechnique.getOrDefault(type, Map.of()).forEach((name, tc) -> techniques.put(name, tc.toJson()));
      types.put(type.wire(), t.put("severityIfMissed", type.missSeverity().wire()).put("techniques", techniques));
    });
    JsonObject bySeverity = new JsonObject();
    severities.forEach((s, n) -> bySeverity.put(s.wire(), n));
    return new JsonObject().put("types", types).put("totals", total.toJson())
        .put("vulnerabilities", vulnerabilities).put("vulnerabilitiesBySeverity", bySeverity);
  }

  private static final class Counts {
    int planted;
    int detected;
    int missed;
    int errors;

    void add(Finding.Status s) {
      planted++;
      switch (s) {
        case DETECTED -> detected++;
        case MISSED -> missed++;
        case ERROR -> errors++;
      }
    }

    JsonObject toJson() {
      int judged = detected + missed;
      return new JsonObject().put("planted", planted).put("detected", detected).put("missed", missed)
          .put("errors", errors).put("detectionRate", judged == 0 ? null : (double) detected / judged);
    }
  }
}
