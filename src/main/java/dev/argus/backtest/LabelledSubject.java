package dev.argus.backtest;

import io.vertx.core.json.JsonObject;

import java.time.Instant;

/**
 * One subject of a labelled world the backtest decides: its id, the decision profile that decides it, the ground truth
 * ({@code fraud}, the planted {@code pattern} — {@code none} for background subjects — and its {@code group}), and the
 * decision time {@code asOf} (no record later than it may influence the decision). The label lives only here, in the
 * backtest's memory: the records sent to the store carry none.
 */
public record LabelledSubject(String id, String profile, boolean fraud, String pattern, String group, Instant asOf) {

  public static final String ONBOARDING = "seller_onboarding";
  public static final String TRANSACTION = "transaction_investigation";
  public static final String NO_PATTERN = "none";

  public JsonObject toJson() {
    return new JsonObject().put("id", id).put("profile", profile).put("fraud", fraud).put("pattern", pattern)
        .put("group", group).put("asOf", asOf == null ? null : asOf.toString());
  }
}
