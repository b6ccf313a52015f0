package dev.argus.observe;

import dev.argus.metrics.ArgusMeters;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.json.JsonObject;

/** The circuit breakers' states as their gauges ({@link ArgusMeters#BREAKER_STATE}) show them: {name: state}. */
final class Breakers {

  private Breakers() {
  }

  static JsonObject states(MeterRegistry registry) {
    JsonObject out = new JsonObject();
    for (Gauge g : registry.find(ArgusMeters.BREAKER_STATE).gauges()) {
      double v = g.value();
      out.put(g.getId().getTag("breaker"), v >= 1 ? "open" : v > 0 ? "half_open" : "closed");
    }
    return out;
  }
}
