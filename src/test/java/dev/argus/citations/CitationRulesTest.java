package dev.argus.citations;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CitationRulesTest {

  static JsonObject shipped() throws Exception {
    return new JsonObject(Files.readString(Path.of("conf/citations/rules.json")));
  }

  @Test
  void theShippedRuleSetIsTheIssuesModel() throws Exception {
    CitationRules r = CitationRules.fromJson(shipped());
    assertEquals(Confidence.DEFAULT, r.confidence());
    assertEquals("LINKED_ACCOUNTS", r.rulesByVia().get("device").implies());
    assertEquals("SAME_CONTROLLER", r.rulesByVia().get("bank_account").implies());
    assertEquals("LINKED", r.rulesByVia().get("email").implies());
    assertEquals("LINKED", r.rulesByVia().get("phone").implies());
    assertTrue(r.version().matches("\\d{4}-\\d{2}-\\d{2}\\.\\d+"));
  }

  @Test
  void wrongRuleSetsAreRejectedNamingTheField() throws Exception {
    assertEquals("version must be 1-64 characters of [A-Za-z0-9._-]", assertThrows(IllegalArgumentException.class,
        () -> CitationRules.fromJson(shipped().put("version", "no spaces"))).getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> CitationRules.fromJson(shipped()
        .put("rules", new JsonArray()))).getMessage().contains("rules"));
    JsonObject viaAccount = shipped();
    viaAccount.getJsonArray("rules").getJsonObject(0).put("via", "seller");
    assertTrue(assertThrows(IllegalArgumentException.class, () -> CitationRules.fromJson(viaAccount)).getMessage()
        .contains("rules[0].via"));
    JsonObject lowerCase = shipped();
    lowerCase.getJsonArray("rules").getJsonObject(1).put("implies", "same controller");
    assertTrue(assertThrows(IllegalArgumentException.class, () -> CitationRules.fromJson(lowerCase)).getMessage()
        .contains("rules[1].implies"));
    JsonObject duplicate = shipped();
    duplicate.getJsonArray("rules").add(duplicate.getJsonArray("rules").getJsonObject(0).copy());
    assertThrows(IllegalArgumentException.class, () -> CitationRules.fromJson(duplicate));
    JsonObject thresholds = shipped();
    thresholds.getJsonObject("confidence").put("excludeBelow", 0.6);
    assertThrows(IllegalArgumentException.class, () -> CitationRules.fromJson(thresholds));
  }

  @Test
  void anUnreadableFileSaysWhich(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    Path bad = dir.resolve("rules.json");
    Files.writeString(bad, "{not json");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CitationRules.load(bad));
    assertTrue(e.getMessage().contains(bad.toString()), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> CitationRules.load(dir.resolve("absent.json")));
  }
}
