package dev.argus.decide;

import dev.argus.decide.model.DecisionProfile;
import dev.argus.decide.model.PolicySet;
import dev.argus.decide.rules.Signal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The reasons of a decision, each citing its evidence, and the explanation a person acts on: the top contributing
 * signals with how the subject compares with its peers ({@link PeerStats}). Citation base confidence (before
 * validation by the graph): 0.9 when its tool succeeded and found something, 0.3 when the tool failed, 0.1 when
 * nothing was found.
 */
public final class Reasons {

  public static final int TOP = 3;
  public static final double FOUND = 0.9;
  public static final double FAILED = 0.3;
  public static final double NOTHING = 0.1;

  private Reasons() {
  }

  /** The signals that contributed, largest first (at most {@link #TOP}). */
  public static List<Signal> top(List<Signal> signals) {
    return signals.stream().filter(s -> s.known() && s.contribution() > 0)
        .sorted(Comparator.comparingDouble(Signal::contribution).reversed()).limit(TOP).toList();
  }

  /** The citations a reason about this signal carries, with their base confidence. */
  public static List<JsonObject> citations(Signal s, String subjectEntity) {
    List<JsonObject> out = new ArrayList<>();
    if (s.cite() != null) {
      out.add(new JsonObject().put("citation", s.cite()).put("base", !s.known() ? FAILED
          : s.scaled() > 0 ? FOUND : NOTHING));
    }
    if (subjectEntity != null && "identity".equals(s.domain())) {
      out.add(new JsonObject().put("citation", subjectEntity).put("base", FOUND));
    }
    return out;
  }

  /** A sentence about one signal, with its peers when known. */
  public static String text(Signal s, PeerStats.Comparison peers) {
    String base = String.format(Locale.ROOT, "%s = %s (scaled %.2f x weight %.1f -> +%.2f risk points)", s.name(),
        fmt(s.raw()), s.scaled(), s.weight(), s.contribution());
    if (s.note() != null) {
      base += "; " + s.note();
    }
    if (peers != null) {
      base += String.format(Locale.ROOT, "; higher than %.0f%% of %d peers (median %s, p90 %s)",
          100 * peers.shareBelow(), peers.peers(), fmt(peers.median()), fmt(peers.p90()));
    }
    return base;
  }

  static String fmt(Double v) {
    if (v == null) {
      return "unknown";
    }
    return v == Math.rint(v) ? String.valueOf(v.longValue()) : String.format(Locale.ROOT, "%.3f", v);
  }

  /** A reason for each fired policy rule. */
  public static JsonObject policyReason(DecisionProfile p, PolicySet.Fired f) {
    return new JsonObject().put("text", "policy rule " + f.id() + " fired: " + f.detail() + " -> at least "
        + p.outcome(f.action())).put("signal", null).put("rule", f.id()).put("contribution", 0.0)
        .put("citations", new JsonArray());
  }
}
