package dev.argus.decide;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A decision as an audit file: the whole record as JSON, or a printable HTML page (every value escaped; no script,
 * no external resource) with the outcome, the reasons and their citations, the signals, the rules, the reflection, the
 * votes, the tools with their fingerprints, the versions and the corrections.
 */
public final class AuditExport {

  private AuditExport() {
  }

  public static JsonObject json(JsonObject decision, JsonArray correctedBy) {
    return new JsonObject().put("exportVersion", 1).put("exportedAt", java.time.Instant.now().toString())
        .put("decision", decision).put("correctedBy", correctedBy);
  }

  public static String html(JsonObject d, JsonArray correctedBy) {
    StringBuilder h = new StringBuilder(8_192);
    h.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Decision ")
        .append(esc(d.getString("decisionId"))).append("</title><style>body{font-family:sans-serif;margin:2em}"
            + "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #999;padding:4px 8px;text-align:left}"
            + "@media print{body{margin:0}}</style></head><body>");
    h.append("<h1>Decision ").append(esc(d.getString("decisionId"))).append("</h1>");
    table(h, new String[][] {
        {"Profile", d.getString("profile")}, {"Subject", d.getString("subjectId")},
        {"Outcome", d.getString("outcome")}, {"Status", d.getString("status")},
        {"Risk score", str(d.getValue("riskScore"))}, {"Risk band", d.getString("riskBand")},
        {"Confidence (raw)", str(d.getValue("confidence"))},
        {"Confidence (calibrated)", str(d.getValue("calibratedConfidence"))},
        {"Created", d.getString("createdAt")}, {"Run", d.getString("runId")},
        {"Corrects", d.getString("correctsDecisionId")}, {"Corrected by", correctedBy.encode()},
        {"Scoring version", d.getString("scoringVersion")}, {"Policy version", d.getString("policyVersion")},
        {"Versions", str(d.getValue("versions"))}});
    h.append("<h2>Why</h2><ol>");
    for (Object o : d.getJsonArray("reasons", new JsonArray())) {
      JsonObject r = (JsonObject) o;
      h.append("<li>").append(esc(r.getString("text"))).append("<ul>");
      for (Object c : r.getJsonArray("citations", new JsonArray())) {
        JsonObject cj = (JsonObject) c;
        h.append("<li>").append(esc(cj.getString("citation"))).append(" &mdash; ").append(esc(cj.getString("status")))
            .append(", confidence ").append(esc(str(cj.getValue("confidence")))).append("</li>");
      }
      h.append("</ul></li>");
    }
    h.append("</ol><h2>Status</h2><ul>");
    for (Object o : d.getJsonArray("statusReasons", new JsonArray())) {
      h.append("<li>").append(esc(String.valueOf(o))).append("</li>");
    }
    h.append("</ul><h2>Signals</h2><table><tr><th>Signal</th><th>Value</th><th>Scaled</th><th>Weight</th>"
        + "<th>Contribution</th><th>Citation</th><th>Note</th></tr>");
    for (Object o : d.getJsonArray("signals", new JsonArray())) {
      JsonObject s = (JsonObject) o;
      h.append("<tr>");
      for (String k : new String[] {"name", "value", "scaled", "weight", "contribution", "cite", "note"}) {
        h.append("<td>").append(esc(str(s.getValue(k)))).append("</td>");
      }
      h.append("</tr>");
    }
    h.append("</table><h2>Policy rules fired</h2><pre>").append(esc(d.getJsonArray("firedRules", new JsonArray())
        .encodePrettily())).append("</pre><h2>Reflection</h2><pre>")
        .append(esc(str(d.getValue("reflection")))).append("</pre><h2>Consensus</h2><pre>")
        .append(esc(str(d.getValue("consensus")))).append("</pre><h2>Tools</h2><table><tr><th>#</th><th>Tool</th>"
            + "<th>Success</th><th>Input fingerprint</th><th>Output fingerprint</th><th>Error</th></tr>");
    for (Object o : d.getJsonArray("tools", new JsonArray())) {
      JsonObject t = (JsonObject) o;
      h.append("<tr>");
      for (String k : new String[] {"index", "tool", "success", "inputFingerprint", "outputFingerprint", "error"}) {
        h.append("<td>").append(esc(str(t.getValue(k)))).append("</td>");
      }
      h.append("</tr>");
    }
    h.append("</table><h2>Review</h2><pre>").append(esc(str(d.getValue("review")))).append("</pre></body></html>");
    return h.toString();
  }

  private static void table(StringBuilder h, String[][] rows) {
    h.append("<table>");
    for (String[] r : rows) {
      h.append("<tr><th>").append(esc(r[0])).append("</th><td>").append(esc(r[1])).append("</td></tr>");
    }
    h.append("</table>");
  }

  private static String str(Object v) {
    return v == null ? "" : v instanceof JsonObject j ? j.encode() : String.valueOf(v);
  }

  /** HTML-escapes text (element content and attribute values). */
  public static String esc(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }
}
