package dev.argus.adversarial;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A run against its baseline (the previous completed run, or a report given to the CLI): a regression is a scenario
 * type whose detection rate fell by more than {@code tolerance} below the baseline's, or more vulnerabilities of a
 * severity (critical or high) than the baseline had. Types missing on either side, or without a rate, are not
 * compared.
 */
public final class Regressions {

  private Regressions() {
  }

  public static JsonArray compare(JsonObject report, JsonObject baseline, double tolerance) {
    JsonArray out = new JsonArray();
    if (baseline == null) {
      return out;
    }
    JsonObject now = report.getJsonObject("types", new JsonObject());
    JsonObject before = baseline.getJsonObject("types", new JsonObject());
    for (String type : now.fieldNames().stream().sorted().toList()) {
      JsonObject a = before.getJsonObject(type);
      Double was = a == null ? null : a.getDouble("detectionRate");
      Double is = now.getJsonObject(type).getDouble("detectionRate");
      if (was != null && is != null && is < was - tolerance) {
        out.add(new JsonObject().put("kind", "detection_rate").put("type", type).put("baseline", was).put("current", is));
      }
    }
    JsonObject sevNow = report.getJsonObject("vulnerabilitiesBySeverity", new JsonObject());
    JsonObject sevBefore = baseline.getJsonObject("vulnerabilitiesBySeverity", new JsonObject());
    for (ScenarioType.Severity s : new ScenarioType.Severity[] {ScenarioType.Severity.CRITICAL, ScenarioType.Severity.HIGH}) {
      Integer was = sevBefore.getInteger(s.wire());
      int is = sevNow.getInteger(s.wire(), 0);
      if (was != null && is > was) {
        out.add(new JsonObject().put("kind", "vulnerabilities").put("severity", s.wire()).put("baseline", was)
            .put("current", is));
      }
    }
    return out;
  }
}
