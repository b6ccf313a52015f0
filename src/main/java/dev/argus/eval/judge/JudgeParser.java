package dev.argus.eval.judge;

import dev.argus.eval.score.Metric;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads the judge's reply, robust to malformed output: first as it is; then repaired (code fences removed, the
 * outermost {@code {...}} kept, trailing commas dropped, single quotes made double when there are no double quotes);
 * otherwise skipped with the reason. Each score may be a number or a numeric string, on a 0..1, 0..10 or 0..100
 * scale (a value above 1 is read as out of 10, above 10 as out of 100); a missing, non-numeric or out-of-range
 * score is left out with its reason.
 */
public final class JudgeParser {

  /** The reply keys and the metrics they give. */
  static final Map<String, Metric> KEYS = new LinkedHashMap<>();

  static {
    KEYS.put("contextRelevance", Metric.JUDGE_CONTEXT_RELEVANCE);
    KEYS.put("answerRelevance", Metric.JUDGE_ANSWER_RELEVANCE);
    KEYS.put("groundedness", Metric.JUDGE_GROUNDEDNESS);
    KEYS.put("faithfulness", Metric.JUDGE_FAITHFULNESS);
    KEYS.put("coherence", Metric.JUDGE_COHERENCE);
  }

  private JudgeParser() {
  }

  public static JudgeVerdict parse(String reply) {
    if (reply == null || reply.isBlank()) {
      return JudgeVerdict.skipped("the judge replied nothing");
    }
    JsonObject json = tryParse(reply.trim());
    boolean repaired = false;
    if (json == null) {
      json = tryParse(repair(reply));
      repaired = true;
      if (json == null) {
        return JudgeVerdict.skipped("the judge's reply is not a JSON object, even after repair");
      }
    }
    Map<Metric, Double> scores = new EnumMap<>(Metric.class);
    JsonObject missing = new JsonObject();
    for (Map.Entry<String, Metric> k : KEYS.entrySet()) {
      Object v = json.getValue(k.getKey());
      Double d = number(v);
      if (d == null) {
        missing.put(k.getKey(), v == null ? "absent" : "not a number");
      } else if (d < 0 || d > 100) {
        missing.put(k.getKey(), "out of range: " + d);
      } else {
        scores.put(k.getValue(), d <= 1 ? d : d <= 10 ? d / 10 : d / 100);
      }
    }
    if (scores.isEmpty()) {
      return new JudgeVerdict("skipped", scores, missing, "the judge gave no usable score");
    }
    return new JudgeVerdict(repaired ? "repaired" : "ok", scores, missing, null);
  }

  static String repair(String reply) {
    String s = reply.replaceAll("```(?:json)?", "").trim();
    int open = s.indexOf('{');
    int close = s.lastIndexOf('}');
    if (open < 0) {
      return s;
    }
    s = close > open ? s.substring(open, close + 1) : s.substring(open) + "}";
    s = s.replaceAll(",\\s*}", "}");
    if (!s.contains("\"") && s.contains("'")) {
      s = s.replace('\'', '"');
    }
    // bare keys: {groundedness: 0.8}
    s = s.replaceAll("([{,]\\s*)([A-Za-z_][A-Za-z0-9_]*)\\s*:", "$1\"$2\":");
    return s;
  }

  private static JsonObject tryParse(String s) {
    try {
      Object v = io.vertx.core.json.Json.decodeValue(s);
      return v instanceof JsonObject o ? o : null;
    } catch (DecodeException | ClassCastException e) {
      return null;
    }
  }

  private static Double number(Object v) {
    if (v instanceof Number n) {
      double d = n.doubleValue();
      return Double.isFinite(d) ? d : null;
    }
    if (v instanceof String str) {
      try {
        double d = Double.parseDouble(str.trim().replace("%", ""));
        return Double.isFinite(d) ? d : null;
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return null;
  }
}
