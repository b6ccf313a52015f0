package dev.argus.decide.model;

import dev.argus.config.Settings;
import io.vertx.core.json.JsonObject;

/**
 * One signal of a scoring model: its weight, the raw values at which it means no risk ({@code low}) and full risk
 * ({@code high}; {@code low > high} for signals where less is riskier, e.g. account age), the tool that measures it
 * and its domain (identity, network, behaviour). {@code from}: where the raw value comes from when it is a tool's
 * named number ({@code <tool>.<name>} of the tool's {@code data.signals}, e.g. {@code risk_propagation.riskScore});
 * by default the signal's own name (the record tools' signals).
 */
public record SignalSpec(String name, double weight, double low, double high, String tool, String domain, String from) {

  /** The raw value scaled linearly to 0..1 between low and high, clamped. */
  public double scale(double raw) {
    if (high == low) {
      return raw >= high ? 1 : 0;
    }
    double s = (raw - low) / (high - low);
    return Math.max(0, Math.min(1, s));
  }

  static SignalSpec from(String file, String name, JsonObject json) {
    Settings s = new Settings(file + ".signals." + name, json);
    return new SignalSpec(name, s.doubleIn("weight", 1, 0, 100), s.doubleIn("low", 0, -1e9, 1e9),
        s.doubleIn("high", 1, -1e9, 1e9), s.nonBlank("tool", null),
        s.oneOf("domain", "behaviour", "identity", "network", "behaviour"), s.nonBlank("from", name));
  }

  public JsonObject toJson() {
    return new JsonObject().put("weight", weight).put("low", low).put("high", high).put("tool", tool)
        .put("domain", domain).put("from", from);
  }
}
