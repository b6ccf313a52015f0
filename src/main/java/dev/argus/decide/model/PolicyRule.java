package dev.argus.decide.model;

import dev.argus.config.Settings;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One hard rule of a policy file. Types: {@code country_in} (the subject's country is one of {@code countries}),
 * {@code signal_at_least} (the raw value of {@code signal} is at least {@code value}), {@code amount_above} (the
 * transaction's amount is above {@code amount}). A rule that fires raises the outcome to at least its {@code action}.
 */
public record PolicyRule(String id, String type, Verdict action, Set<String> profiles, Set<String> countries,
                         String signal, double value, double amount) {

  public static final List<String> TYPES = List.of("country_in", "signal_at_least", "amount_above");

  public boolean appliesTo(DecisionProfile p) {
    return profiles.isEmpty() || profiles.contains(p.wire());
  }

  /** Whether the rule fires on these facts; {@code detail} of the firing goes into the decision. */
  public String fires(PolicyFacts facts) {
    return switch (type) {
      case "country_in" -> facts.country() != null && countries.contains(facts.country().toUpperCase(Locale.ROOT))
          ? "country " + facts.country() + " is sanctioned" : null;
      case "signal_at_least" -> {
        Double raw = facts.signals().get(signal);
        yield raw != null && raw >= value ? "signal " + signal + " = " + raw + " >= " + value : null;
      }
      case "amount_above" -> facts.amount() != null && facts.amount() > amount
          ? "amount " + facts.amount() + " above " + amount : null;
      default -> null;
    };
  }

  static PolicyRule from(String file, int i, JsonObject json) {
    Settings s = new Settings(file + ".rules[" + i + "]", json);
    String type = s.oneOf("type", null, TYPES.toArray(String[]::new));
    Verdict action;
    try {
      action = Verdict.fromWire(s.nonBlank("action", null));
    } catch (IllegalArgumentException e) {
      throw s.error("action", e.getMessage());
    }
    Set<String> countries = Set.copyOf(s.strings("countries", List.of()).stream()
        .map(c -> c.toUpperCase(Locale.ROOT)).toList());
    if (type.equals("country_in") && countries.isEmpty()) {
      throw s.error("countries", "must list at least one country code");
    }
    String signal = s.string("signal", null);
    if (type.equals("signal_at_least") && (signal == null || signal.isBlank())) {
      throw s.error("signal", "must name a signal");
    }
    return new PolicyRule(s.nonBlank("id", null), type, action, Set.copyOf(s.strings("profiles", List.of())),
        countries, signal, s.doubleIn("value", 1, -1e12, 1e12), s.doubleIn("amount", 0, 0, 1e15));
  }
}
