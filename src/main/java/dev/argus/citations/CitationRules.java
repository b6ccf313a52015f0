package dev.argus.citations;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The versioned rule set of citation validation ({@code conf/citations/rules.json}): the confidence model, which
 * entity types are accounts, the shared-identifier rules, which relation implies which, and the relation a
 * transitive chain of different links yields, and {@code retryMinWeight}: when the shortest path crosses an edge no
 * rule covers, the path is asked for once more over edges at least that heavy (the graph weighs the identifiers the
 * rules use, devices, payout accounts, emails, phones, cards and tax ids, at 0.9 or more). Validated as a whole when loaded: a wrong file stops start-up with a
 * message naming the field.
 */
public record CitationRules(String version, Confidence confidence, Set<String> accountTypes,
                            Map<String, InferenceRule> rulesByVia, Map<String, Set<String>> implies,
                            String transitiveRelation, String terminalRelation, double retryMinWeight) {

  public static CitationRules load(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new IllegalArgumentException("citation rules: cannot read " + file + ": " + e.getMessage());
    }
    try {
      return fromJson(new JsonObject(text));
    } catch (DecodeException e) {
      throw new IllegalArgumentException("citation rules " + file + ": not JSON: " + e.getMessage());
    } catch (IllegalArgumentException | ClassCastException e) {
      throw new IllegalArgumentException("citation rules " + file + ": " + e.getMessage());
    }
  }

  public static CitationRules fromJson(JsonObject json) {
    String version = json.getString("version");
    if (version == null || !version.matches("[A-Za-z0-9._-]{1,64}")) {
      throw new IllegalArgumentException("version must be 1-64 characters of [A-Za-z0-9._-]");
    }
    JsonObject c = json.getJsonObject("confidence", new JsonObject());
    Confidence d = Confidence.DEFAULT;
    Confidence confidence = new Confidence(
        number(c, "depthPenalty", d.depthPenalty()), (int) number(c, "maxDepth", d.maxDepth()),
        number(c, "validAt", d.validAt()), number(c, "excludeBelow", d.excludeBelow()),
        number(c, "toolSucceeded", d.toolSucceeded()), number(c, "toolFailed", d.toolFailed()),
        number(c, "nothingFound", d.nothingFound()));
    JsonArray accountsJson = json.getJsonArray("accountTypes", new JsonArray().add("seller").add("buyer"));
    Set<String> accounts = Set.copyOf(entityTypes(accountsJson, "accountTypes"));
    Map<String, InferenceRule> rules = new LinkedHashMap<>();
    JsonArray rulesJson = json.getJsonArray("rules");
    if (rulesJson == null || rulesJson.isEmpty()) {
      throw new IllegalArgumentException("rules must be a non-empty list");
    }
    Set<String> names = new java.util.HashSet<>();
    for (int i = 0; i < rulesJson.size(); i++) {
      JsonObject r = rulesJson.getJsonObject(i);
      String name = required(r, "name", "rules[" + i + "]");
      String via = required(r, "via", "rules[" + i + "]");
      String implies = relationName(required(r, "implies", "rules[" + i + "]"), "rules[" + i + "].implies");
      if (!CitationParser.ENTITY_TYPES.contains(via) || accounts.contains(via)) {
        throw new IllegalArgumentException("rules[" + i + "].via must be an identifier entity type, got '" + via + "'");
      }
      if (!names.add(name) || rules.containsKey(via)) {
        throw new IllegalArgumentException("rules[" + i + "]: duplicate rule name or via type");
      }
      rules.put(via, new InferenceRule(name, via, implies, r.getString("description", "")));
    }
    Map<String, Set<String>> implies = new HashMap<>();
    JsonObject impliesJson = json.getJsonObject("implies", new JsonObject());
    for (String key : impliesJson.fieldNames()) {
      List<String> targets = new ArrayList<>();
      for (Object o : impliesJson.getJsonArray(key)) {
        targets.add(relationName(String.valueOf(o), "implies." + key));
      }
      implies.put(relationName(key, "implies"), Set.copyOf(targets));
    }
    String transitive = relationName(json.getString("transitiveRelation", "LINKED"), "transitiveRelation");
    String terminal = relationName(json.getString("terminalRelation", "LINKED"), "terminalRelation");
    double retry = number(json, "retryMinWeight", 0);
    if (!(retry >= 0 && retry <= 1)) {
      throw new IllegalArgumentException("retryMinWeight must be between 0 and 1");
    }
    return new CitationRules(version, confidence, accounts, Map.copyOf(rules), Map.copyOf(implies), transitive,
        terminal, retry);
  }

  /** True when relation {@code found} supports a claim of relation {@code claimed} (equal, or implied by it). */
  public boolean supports(String found, String claimed) {
    if (claimed == null || claimed.equals(found)) {
      return true;
    }
    return implies.getOrDefault(found, Set.of()).contains(claimed);
  }

  public boolean isAccount(String type) {
    return accountTypes.contains(type);
  }

  private static double number(JsonObject o, String key, double def) {
    Object v = o.getValue(key);
    if (v == null) {
      return def;
    }
    if (!(v instanceof Number n)) {
      throw new IllegalArgumentException(key + " must be a number");
    }
    return n.doubleValue();
  }

  private static String required(JsonObject o, String key, String where) {
    String v = o.getString(key);
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException(where + "." + key + " is required");
    }
    return v;
  }

  private static String relationName(String s, String where) {
    if (s == null || !s.matches("[A-Z][A-Z0-9_]{0,63}")) {
      throw new IllegalArgumentException(where + " must be an upper-case relation name, got '" + s + "'");
    }
    return s;
  }

  private static List<String> entityTypes(JsonArray a, String where) {
    List<String> out = new ArrayList<>();
    for (Object o : a) {
      if (!(o instanceof String s) || !CitationParser.ENTITY_TYPES.contains(s)) {
        throw new IllegalArgumentException(where + " must list entity types, got '" + o + "'");
      }
      out.add(s);
    }
    return out;
  }
}
