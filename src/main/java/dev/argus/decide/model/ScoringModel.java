package dev.argus.decide.model;

import dev.argus.config.ConfigException;
import dev.argus.config.Settings;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A versioned scoring model ({@code conf/scoring/<profile>.json} is live; {@code <profile>@<version>.json} are
 * candidates for shadow mode): the signals with weights and scales, each tool's domain, the hypotheses and the tools
 * that test them, the alternative tool for each tool when a plan has to change, the score thresholds, the autonomy
 * thresholds, the consensus strategy and the review SLA. Validated at start (a wrong key stops start-up).
 */
public record ScoringModel(DecisionProfile profile, String version, Map<String, SignalSpec> signals,
                           Map<String, String> toolDomains, Map<String, List<String>> hypotheses,
                           Map<String, JsonObject> alternatives, double reviewThreshold, double rejectThreshold,
                           double minConfidence, double minCoverage, String strategy, long reviewSlaMinutes,
                           Map<String, String> subjectParams, String combine, Map<String, String> toolSubjects) {

  /** {@code mean}: the weighted mean of the known signals; {@code accumulate}: evidence adds up (see {@code Scoring}). */
  public static final List<String> COMBINES = List.of("mean", "accumulate");

  /** The earlier constructor: the weighted mean. */
  public ScoringModel(DecisionProfile profile, String version, Map<String, SignalSpec> signals,
                      Map<String, String> toolDomains, Map<String, List<String>> hypotheses,
                      Map<String, JsonObject> alternatives, double reviewThreshold, double rejectThreshold,
                      double minConfidence, double minCoverage, String strategy, long reviewSlaMinutes,
                      Map<String, String> subjectParams) {
    this(profile, version, signals, toolDomains, hypotheses, alternatives, reviewThreshold, rejectThreshold,
        minConfidence, minCoverage, strategy, reviewSlaMinutes, subjectParams, "mean", Map.of());
  }

  /** Whom a tool is asked about: {@code seller} (default) or {@code buyer} (the transaction's buyer). */
  public String subjectOf(String tool) {
    return toolSubjects.getOrDefault(tool, "seller");
  }

  public boolean accumulates() {
    return "accumulate".equals(combine);
  }

  /** The record tools (on main); their subject parameter is {@code sellerId}. */
  public static final List<String> RECORD_TOOLS = List.of("seller_profile", "transaction_history", "watchlist_match");

  /** The parameter of a tool that names the subject (configurable per tool: {@code tools.<name>.subjectParam}). */
  public String subjectParam(String tool) {
    return subjectParams.getOrDefault(tool, RECORD_TOOLS.contains(tool) ? "sellerId" : "id");
  }

  public static final List<String> STRATEGIES = List.of("majority", "unanimous", "weighted");

  /** The verdict of a risk score: below review → PASS, below reject → REVIEW, else DENY. */
  public Verdict verdictOf(double riskScore) {
    return riskScore >= rejectThreshold ? Verdict.DENY : riskScore >= reviewThreshold ? Verdict.REVIEW : Verdict.PASS;
  }

  /** Sum of every signal's weight. */
  public double totalWeight() {
    return signals.values().stream().mapToDouble(SignalSpec::weight).sum();
  }

  public String domainOf(String tool) {
    return toolDomains.getOrDefault(tool, "behaviour");
  }

  /** Whether a tool's signals weigh in this model (a failure of such a tool matters to the outcome). */
  public boolean toolMatters(String tool) {
    return signals.values().stream().anyMatch(s -> s.tool().equals(tool) && s.weight() > 0);
  }

  public static ScoringModel from(String file, JsonObject json) {
    Settings s = new Settings(file, json);
    DecisionProfile profile;
    try {
      profile = DecisionProfile.fromWire(s.nonBlank("profile", null));
    } catch (RuntimeException e) {
      throw s.error("profile", e.getMessage());
    }
    String version = s.nonBlank("version", null);
    if (!version.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,63}")) {
      throw s.error("version", "must match [A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    }
    Map<String, SignalSpec> signals = new LinkedHashMap<>();
    JsonObject sig = s.object("signals", new JsonObject());
    for (String name : sig.fieldNames()) {
      if (!(sig.getValue(name) instanceof JsonObject o)) {
        throw s.error("signals." + name, "must be an object");
      }
      signals.put(name, SignalSpec.from(file, name, o));
    }
    if (signals.isEmpty()) {
      throw s.error("signals", "must define at least one signal");
    }
    Map<String, String> tools = new LinkedHashMap<>();
    JsonObject t = s.object("tools", new JsonObject());
    Map<String, String> subjectParams = new LinkedHashMap<>();
    Map<String, String> toolSubjects = new LinkedHashMap<>();
    for (String name : t.fieldNames()) {
      Settings ts = new Settings(file + ".tools." + name, t.getJsonObject(name));
      toolSubjects.put(name, ts.oneOf("subject", "seller", "seller", "buyer"));
      tools.put(name, ts.oneOf("domain", "behaviour", "identity", "network", "behaviour"));
      subjectParams.put(name, ts.nonBlank("subjectParam", RECORD_TOOLS.contains(name) ? "sellerId" : "id"));
    }
    Map<String, List<String>> hypotheses = new LinkedHashMap<>();
    JsonObject h = s.object("hypotheses", new JsonObject());
    for (String name : h.fieldNames()) {
      JsonArray list = h.getJsonArray(name);
      hypotheses.put(name, list.stream().map(String::valueOf).toList());
    }
    if (hypotheses.isEmpty()) {
      throw s.error("hypotheses", "must name at least one hypothesis");
    }
    Map<String, JsonObject> alternatives = new LinkedHashMap<>();
    JsonObject a = s.object("alternatives", new JsonObject());
    for (String name : a.fieldNames()) {
      alternatives.put(name, a.getJsonObject(name));
    }
    Settings th = new Settings(file + ".thresholds", s.object("thresholds", new JsonObject()));
    double review = th.doubleIn("review", 35, 0, 100);
    double reject = th.doubleIn("reject", 65, 0, 100);
    if (reject < review) {
      throw new ConfigException(file + ".thresholds: reject (" + reject + ") must not be below review (" + review + ")");
    }
    Settings au = new Settings(file + ".autonomy", s.object("autonomy", new JsonObject()));
    Settings co = new Settings(file + ".consensus", s.object("consensus", new JsonObject()));
    return new ScoringModel(profile, version, java.util.Collections.unmodifiableMap(signals), Map.copyOf(tools),
        java.util.Collections.unmodifiableMap(hypotheses),
        Map.copyOf(alternatives), review, reject, au.doubleIn("minConfidence", 0.7, 0, 1),
        au.doubleIn("minCoverage", 0.5, 0, 1), co.oneOf("strategy", "majority", STRATEGIES.toArray(String[]::new)),
        s.longIn("reviewSlaMinutes", 240, 1, 525_600), Map.copyOf(subjectParams),
        s.oneOf("combine", "mean", COMBINES.toArray(String[]::new)), Map.copyOf(toolSubjects));
  }

  /** The signals in their configured order (Map.copyOf loses it): sorted by name for stable output. */
  public List<SignalSpec> orderedSignals() {
    return signals.values().stream().sorted(java.util.Comparator.comparing(SignalSpec::name)).toList();
  }

  public JsonObject toJson() {
    JsonObject sig = new JsonObject();
    orderedSignals().forEach(x -> sig.put(x.name(), x.toJson()));
    return new JsonObject().put("profile", profile.wire()).put("version", version).put("combine", combine)
        .put("signals", sig)
        .put("thresholds", new JsonObject().put("review", reviewThreshold).put("reject", rejectThreshold))
        .put("autonomy", new JsonObject().put("minConfidence", minConfidence).put("minCoverage", minCoverage))
        .put("consensus", new JsonObject().put("strategy", strategy)).put("reviewSlaMinutes", reviewSlaMinutes);
  }
}
