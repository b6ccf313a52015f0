package dev.argus.backtest;

import dev.argus.common.ApiException;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Adopting proposed thresholds writes a new scoring version beside the live one, never over a file. */
class ScoringVersionsTest {

  static final String LIVE = """
      {"profile": "seller_onboarding", "version": "onboarding-v1", "signals": {"watchlist_exact": {"weight": 3}},
       "thresholds": {"review": 35, "reject": 65}, "reviewSlaMinutes": 240}
      """;

  @Test
  void writesACandidateVersionWithTheProposedThresholds(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("seller_onboarding.json"), LIVE);
    JsonObject r = ScoringVersions.adopt(dir.toString(), "seller_onboarding", "onboarding-v2", 27.5, 71.25,
        new JsonObject().put("backtestId", "b-1").put("adoptedBy", "analyst@example"));
    Path file = dir.resolve("seller_onboarding@onboarding-v2.json");
    assertEquals(file.toString(), r.getString("file"));
    JsonObject written = new JsonObject(Files.readString(file));
    assertEquals("onboarding-v2", written.getString("version"));
    assertEquals(27.5, written.getJsonObject("thresholds").getDouble("review"));
    assertEquals(71.25, written.getJsonObject("thresholds").getDouble("reject"));
    assertEquals(3, written.getJsonObject("signals").getJsonObject("watchlist_exact").getInteger("weight"));
    assertEquals(240, written.getInteger("reviewSlaMinutes")); // everything else is the live model's
    JsonObject adoption = written.getJsonObject("adoption");
    assertEquals("analyst@example", adoption.getString("adoptedBy"));
    assertEquals("onboarding-v1", adoption.getString("replacesVersion"));
    assertEquals(35, adoption.getJsonObject("replacesThresholds").getInteger("review"));
    // the live file is untouched
    assertEquals(new JsonObject(LIVE), new JsonObject(Files.readString(dir.resolve("seller_onboarding.json"))));
  }

  @Test
  void refusesToOverwriteOrToReuseTheLiveVersion(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("seller_onboarding.json"), LIVE);
    ScoringVersions.adopt(dir.toString(), "seller_onboarding", "v2", 30, 60, new JsonObject());
    ApiException again = assertThrows(ApiException.class, () -> ScoringVersions.adopt(dir.toString(),
        "seller_onboarding", "v2", 31, 61, new JsonObject()));
    assertEquals(409, again.status());
    assertEquals(30, new JsonObject(Files.readString(dir.resolve("seller_onboarding@v2.json")))
        .getJsonObject("thresholds").getInteger("review"), "the first adoption stays");
    assertEquals(409, assertThrows(ApiException.class, () -> ScoringVersions.adopt(dir.toString(),
        "seller_onboarding", "onboarding-v1", 30, 60, new JsonObject())).status());
    assertEquals(400, assertThrows(ApiException.class, () -> ScoringVersions.adopt(dir.toString(),
        "seller_onboarding", "../evil", 30, 60, new JsonObject())).status());
    assertEquals(404, assertThrows(ApiException.class, () -> ScoringVersions.adopt(dir.toString(),
        "transaction_investigation", "v2", 30, 60, new JsonObject())).status());
    assertTrue(Files.notExists(dir.resolve("transaction_investigation@v2.json")));
  }

  @Test
  void aProposalThatStopsNothingSetsRejectToTheTop(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("seller_onboarding.json"), LIVE);
    JsonObject r = ScoringVersions.adopt(dir.toString(), "seller_onboarding", "v3", 20, 101, new JsonObject());
    assertEquals(100.0, r.getJsonObject("thresholds").getDouble("reject"));
  }
}
