package dev.argus.adversarial;

import dev.argus.records.world.WorldGenerator;
import io.vertx.core.json.JsonObject;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The fraud scenarios, planted by the synthetic world generator ({@link WorldGenerator}, reused as it is): a world of
 * {@code sellers} sellers is generated, every record id is given the prefix {@value #PREFIX} (so the world never
 * overwrites other records of the store and a rerun of the same size and seed loads nothing new), the ground-truth
 * labels are taken off the records (they become the scenarios: each planted seller of a chosen pattern is one
 * scenario), and the closed cases are left out (an attacker's fresh scheme has no case file yet, and a case naming
 * its subjects would give the answer away — it would also label decisions through feedback).
 */
public final class WorldScenarios {

  public static final String PREFIX = "ADV-";
  private static final Pattern ID = Pattern.compile("\"([A-Z])-(\\d{4,})\"");

  /**
   * The world to load (JSON Lines), the scenarios it plants, its honest background sellers (as loaded, in world order:
   * no planted pattern or trap) and how many records it holds.
   */
  public record Planted(String text, List<Scenario> scenarios, List<JsonObject> background, int lines) {
  }

  private WorldScenarios() {
  }

  /** Generates the world; {@code types} chooses which planted patterns become scenarios (others are just data). */
  public static Planted generate(int sellers, long seed, List<ScenarioType> types) {
    StringWriter out = new StringWriter();
    WorldGenerator.generate(sellers, seed, out);
    StringBuilder text = new StringBuilder();
    List<Scenario> scenarios = new ArrayList<>();
    List<JsonObject> background = new ArrayList<>();
    int lines = 0;
    for (String raw : out.toString().split("\n")) {
      if (raw.isBlank()) {
        continue;
      }
      JsonObject record = new JsonObject(ID.matcher(raw).replaceAll("\"" + PREFIX + "$1-$2\""));
      String kind = record.getString("kind");
      if ("case".equals(kind)) {
        continue;
      }
      JsonObject label = (JsonObject) record.remove("label");
      if ("seller".equals(kind)) {
        String pattern = label == null ? null : label.getString("pattern");
        if ("none".equals(pattern)) {
          background.add(record);
        }
        for (ScenarioType t : types) {
          if (t.worldPattern() != null && t.worldPattern().equals(pattern) && label.getBoolean("fraud", false)) {
            scenarios.add(new Scenario(t.wire() + ":" + record.getString("id"), t, pattern,
                record.getString("id"), new JsonObject().put("group", label.getString("group"))));
          }
        }
      }
      text.append(record.encode()).append('\n');
      lines++;
    }
    return new Planted(text.toString(), scenarios, background, lines);
  }
}
