package dev.argus.adversarial;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every scenario type's counts, rates and severities on hand-made findings; regressions on constructed reports. */
class AdversarialReportTest {

  private static Finding f(ScenarioType t, String technique, Finding.Status status) {
    return new Finding(t.wire() + ":" + technique + ":" + Math.random(), t, technique, "X", status, "seen");
  }

  @Test
  void countsEachTypeAndTechniqueAndRatesOnlyJudgedScenarios() {
    List<Finding> findings = List.of(
        // synthetic identity: 3 planted, 2 detected, 1 missed → 2/3; one critical vulnerability
        f(ScenarioType.SYNTHETIC_IDENTITY, "synthetic_identity", Finding.Status.DETECTED),
        f(ScenarioType.SYNTHETIC_IDENTITY, "synthetic_identity", Finding.Status.DETECTED),
        f(ScenarioType.SYNTHETIC_IDENTITY, "synthetic_identity", Finding.Status.MISSED),
        // structuring: 2 planted, 1 missed, 1 error → 0/1 = 0.0; one high
        f(ScenarioType.STRUCTURING, "structuring", Finding.Status.MISSED),
        f(ScenarioType.STRUCTURING, "structuring", Finding.Status.ERROR),
        // obfuscation: homoglyph detected, zero_width missed (medium), spacing detected → 2/3
        f(ScenarioType.OBFUSCATED_IDENTIFIERS, "homoglyph", Finding.Status.DETECTED),
        f(ScenarioType.OBFUSCATED_IDENTIFIERS, "zero_width", Finding.Status.MISSED),
        f(ScenarioType.OBFUSCATED_IDENTIFIERS, "spacing", Finding.Status.DETECTED),
        // hidden instructions: one error only → rate null
        f(ScenarioType.HIDDEN_INSTRUCTIONS, "plain", Finding.Status.ERROR),
        // fabricated citations: 2 missed (2 high)
        f(ScenarioType.FABRICATED_CITATIONS, "fabricated_entity", Finding.Status.MISSED),
        f(ScenarioType.FABRICATED_CITATIONS, "fabricated_relation", Finding.Status.MISSED));
    JsonObject r = AdversarialReport.of(List.of(ScenarioType.values()), findings);
    JsonObject types = r.getJsonObject("types");
    assertEquals(ScenarioType.values().length, types.size(), "every type of the suite is listed");

    JsonObject si = types.getJsonObject("synthetic_identity");
    assertEquals(3, si.getInteger("planted"));
    assertEquals(2, si.getInteger("detected"));
    assertEquals(1, si.getInteger("missed"));
    assertEquals(2.0 / 3, si.getDouble("detectionRate"), 1e-12);
    assertEquals("critical", si.getString("severityIfMissed"));

    JsonObject st = types.getJsonObject("structuring");
    assertEquals(2, st.getInteger("planted"));
    assertEquals(1, st.getInteger("errors"));
    assertEquals(0.0, st.getDouble("detectionRate"), 1e-12);

    JsonObject ob = types.getJsonObject("obfuscated_identifiers");
    assertEquals(2.0 / 3, ob.getDouble("detectionRate"), 1e-12);
    assertEquals(0.0, ob.getJsonObject("techniques").getJsonObject("zero_width").getDouble("detectionRate"), 1e-12);
    assertEquals(1.0, ob.getJsonObject("techniques").getJsonObject("homoglyph").getDouble("detectionRate"), 1e-12);

    assertNull(types.getJsonObject("hidden_instructions").getDouble("detectionRate"), "errors are not detections");
    assertEquals(0, types.getJsonObject("mule_network").getInteger("planted"));
    assertNull(types.getJsonObject("mule_network").getDouble("detectionRate"));

    JsonObject sev = r.getJsonObject("vulnerabilitiesBySeverity");
    assertEquals(1, sev.getInteger("critical"));
    assertEquals(3, sev.getInteger("high")); // structuring 1 + fabricated 2
    assertEquals(1, sev.getInteger("medium"));
    assertEquals(0, sev.getInteger("low"));
    assertEquals(5, r.getJsonArray("vulnerabilities").size());

    JsonObject totals = r.getJsonObject("totals");
    assertEquals(11, totals.getInteger("planted"));
    assertEquals(4, totals.getInteger("detected"));
    assertEquals(5, totals.getInteger("missed"));
    assertEquals(2, totals.getInteger("errors"));
    assertEquals(4.0 / 9, totals.getDouble("detectionRate"), 1e-12);
  }

  @Test
  void aFallingRateOrMoreSevereVulnerabilitiesIsARegression() {
    JsonObject before = AdversarialReport.of(List.of(ScenarioType.MULE_NETWORK, ScenarioType.HIDDEN_INSTRUCTIONS),
        List.of(f(ScenarioType.MULE_NETWORK, "m", Finding.Status.DETECTED),
            f(ScenarioType.MULE_NETWORK, "m", Finding.Status.DETECTED),
            f(ScenarioType.HIDDEN_INSTRUCTIONS, "plain", Finding.Status.DETECTED)));
    JsonObject same = AdversarialReport.of(List.of(ScenarioType.MULE_NETWORK, ScenarioType.HIDDEN_INSTRUCTIONS),
        List.of(f(ScenarioType.MULE_NETWORK, "m", Finding.Status.DETECTED),
            f(ScenarioType.MULE_NETWORK, "m", Finding.Status.DETECTED),
            f(ScenarioType.HIDDEN_INSTRUCTIONS, "plain", Finding.Status.DETECTED)));
    assertTrue(Regressions.compare(same, before, 0.0).isEmpty());
    assertTrue(Regressions.compare(same, null, 0.0).isEmpty(), "no baseline, no regression");

    JsonObject worse = AdversarialReport.of(List.of(ScenarioType.MULE_NETWORK, ScenarioType.HIDDEN_INSTRUCTIONS),
        List.of(f(ScenarioType.MULE_NETWORK, "m", Finding.Status.DETECTED),
            f(ScenarioType.MULE_NETWORK, "m", Finding.Status.MISSED),
            f(ScenarioType.HIDDEN_INSTRUCTIONS, "plain", Finding.Status.DETECTED)));
    JsonArray regressions = Regressions.compare(worse, before, 0.0);
    // mule 1.0 → 0.5, and critical vulnerabilities 0 → 1
    assertEquals(2, regressions.size(), regressions.encode());
    assertEquals("mule_network", regressions.getJsonObject(0).getString("type"));
    assertEquals(0.5, regressions.getJsonObject(0).getDouble("current"), 1e-12);
    assertEquals("critical", regressions.getJsonObject(1).getString("severity"));
    // a tolerance of 0.5 forgives the rate, not the new critical vulnerability
    assertEquals(1, Regressions.compare(worse, before, 0.5).size());
  }
}
