package dev.argus.backtest;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Locale;

/** A backtest report as plain text for a terminal: targets, then per profile the figures an analyst reads first. */
public final class ReportText {

  private ReportText() {
  }

  public static String of(JsonObject report) {
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "subjects %d  decided %d  failed %d  in %.1f s  (%s decisions/s)%n",
        report.getLong("subjects"), report.getLong("decided"), report.getLong("failed"),
        report.getDouble("decideSeconds"), num(report.getValue("decisionsPerSecond"))));
    out.append("targets:\n");
    for (Object o : report.getJsonArray("targets")) {
      JsonObject t = (JsonObject) o;
      out.append(String.format(Locale.ROOT, "  %-46s %10s  (target %s)  %s%n", t.getString("name"),
          num(t.getValue("value")), t.getString("target"), t.getBoolean("met") ? "MET" : "NOT MET"));
    }
    JsonObject profiles = report.getJsonObject("profiles");
    for (String profile : profiles.fieldNames()) {
      JsonObject p = profiles.getJsonObject(profile);
      JsonObject f = p.getJsonObject("flagged");
      out.append(String.format(Locale.ROOT, "%n%s: %d decisions, %d fraudulent%n", profile, p.getLong("decisions"),
          p.getLong("fraudSubjects")));
      out.append(String.format(Locale.ROOT, "  flagged (review or stop): precision %s  recall %s  F1 %s  "
              + "(tp %d fp %d fn %d tn %d)%n", num(f.getValue("precision")), num(f.getValue("recall")),
          num(f.getValue("f1")), f.getLong("tp"), f.getLong("fp"), f.getLong("fn"), f.getLong("tn")));
      JsonObject outcomes = p.getJsonObject("outcomes");
      for (String o : outcomes.fieldNames()) {
        JsonObject c = outcomes.getJsonObject(o);
        out.append(String.format(Locale.ROOT, "  %-8s precision %s  recall %s  F1 %s%n", o,
            num(c.getValue("precision")), num(c.getValue("recall")), num(c.getValue("f1"))));
      }
      JsonObject conf = p.getJsonObject("confusion");
      out.append("  confusion (truth × outcome): fraud ").append(conf.getJsonObject("fraud").encode())
          .append("  honest ").append(conf.getJsonObject("honest").encode()).append('\n');
      out.append("  statuses ").append(p.getJsonObject("statuses").encode()).append('\n');
      out.append(String.format(Locale.ROOT, "  review rate %s (outcome REVIEW %s)  latency p50 %s ms  p95 %s ms  "
              + "p99 %s ms%n", num(p.getValue("reviewRate")), num(p.getValue("reviewOutcomeRate")),
          num(p.getJsonObject("latencyMs").getValue("p50")), num(p.getJsonObject("latencyMs").getValue("p95")),
          num(p.getJsonObject("latencyMs").getValue("p99"))));
      out.append("  per pattern:\n");
      for (Object o : p.getJsonArray("patterns")) {
        JsonObject pt = (JsonObject) o;
        out.append(String.format(Locale.ROOT, "    %-20s %-6s n=%-5d %s  %s%n", pt.getString("pattern"),
            pt.getBoolean("fraud") ? "fraud" : "honest", pt.getLong("subjects"),
            pt.getJsonObject("outcomes").encode(), pt.getBoolean("fraud")
                ? "recall " + num(pt.getValue("recall")) + "  precision " + num(pt.getValue("precision"))
                : "false-positive rate " + num(pt.getValue("falsePositiveRate"))));
      }
      features(out, "signals (contribution > 0)", p.getJsonArray("signals"));
      features(out, "policy rules fired", p.getJsonArray("rules"));
      JsonObject th = p.getJsonObject("thresholds");
      JsonObject best = th.getJsonObject("proposed");
      out.append(String.format(Locale.ROOT, "  cost as decided %s with %s%n", num(p.getValue("costAsDecided")),
          th.getJsonObject("costs").encode()));
      if (best != null) {
        out.append(String.format(Locale.ROOT, "  proposed thresholds: review ≥ %s, reject ≥ %s → cost %s, recall %s, "
                + "precision %s, review rate %s (scores only; policies and reflection not replayed)%n",
            num(best.getValue("review")), num(best.getValue("reject")), num(best.getValue("cost")),
            num(best.getValue("recall")), num(best.getValue("precision")), num(best.getValue("reviewRate"))));
      }
      JsonArray missed = p.getJsonObject("misses").getJsonArray("fraudPassed");
      if (!missed.isEmpty()) {
        out.append("  fraud let through (first ").append(missed.size()).append("):");
        missed.stream().limit(10).forEach(m -> out.append(' ').append(((JsonObject) m).getString("subjectId"))
            .append('(').append(((JsonObject) m).getString("pattern")).append(')'));
        out.append('\n');
      }
    }
    return out.toString();
  }

  private static void features(StringBuilder out, String title, JsonArray features) {
    out.append("  ").append(title).append(features.isEmpty() ? ": none\n" : ":\n");
    for (Object o : features) {
      JsonObject f = (JsonObject) o;
      out.append(String.format(Locale.ROOT, "    %-26s hits %-6d hit rate %-7s precision %-7s recall %s%n",
          f.getString("name"), f.getLong("hits"), num(f.getValue("hitRate")), num(f.getValue("precision")),
          num(f.getValue("recall"))));
    }
  }

  static String num(Object v) {
    if (v == null) {
      return "n/a";
    }
    if (v instanceof Number n) {
      double d = n.doubleValue();
      return d == Math.rint(d) && Math.abs(d) < 1e12 ? Long.toString((long) d) : String.format(Locale.ROOT, "%.4f", d);
    }
    return v.toString();
  }
}
