package dev.argus.feedback.calibration;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * A fitted isotonic calibrator of one profile, versioned (1, 2, ... per profile; version 0 is the identity used before
 * any fit). {@link #apply} maps a raw confidence to a calibrated one: inside a block its value; between two blocks the
 * straight line from the end of one to the start of the next (so the map stays non-decreasing and continuous); below
 * the first block or above the last, their values. {@code eceBefore}/{@code eceAfter} are the in-sample ECE of the
 * labels it was fitted on, raw and calibrated.
 */
public record Calibrator(String profile, int version, long fittedAtMs, int labels, List<Isotonic.Block> blocks,
                         double eceBefore, double eceAfter) {

  /** The identity map (no fit yet). */
  public static Calibrator identity(String profile) {
    return new Calibrator(profile, 0, 0, 0, List.of(), Double.NaN, Double.NaN);
  }

  /** Fits a calibrator of {@code version} on {@code outcomes}. */
  public static Calibrator fit(String profile, int version, long now, List<Outcome> outcomes) {
    List<Isotonic.Block> blocks = Isotonic.fit(outcomes);
    Calibrator c = new Calibrator(profile, version, now, outcomes.size(), blocks, Double.NaN, Double.NaN);
    return new Calibrator(profile, version, now, outcomes.size(), blocks, Reliability.of(outcomes).ece(),
        Reliability.of(outcomes, c::apply).ece());
  }

  public boolean isIdentity() {
    return blocks.isEmpty();
  }

  public double apply(double raw) {
    if (blocks.isEmpty() || Double.isNaN(raw)) {
      return raw;
    }
    Isotonic.Block first = blocks.get(0);
    if (raw <= first.xMax()) {
      return first.value();
    }
    for (int i = 1; i < blocks.size(); i++) {
      Isotonic.Block prev = blocks.get(i - 1);
      Isotonic.Block b = blocks.get(i);
      if (raw < b.xMin()) { // between prev.xMax and b.xMin
        double t = (raw - prev.xMax()) / (b.xMin() - prev.xMax());
        return prev.value() + t * (b.value() - prev.value());
      }
      if (raw <= b.xMax()) {
        return b.value();
      }
    }
    return blocks.get(blocks.size() - 1).value();
  }

  public JsonObject toJson() {
    JsonArray bs = new JsonArray();
    for (Isotonic.Block b : blocks) {
      bs.add(new JsonObject().put("xMin", b.xMin()).put("xMax", b.xMax()).put("value", b.value())
          .put("weight", b.weight()));
    }
    JsonObject j = new JsonObject().put("profile", profile).put("version", version).put("method", "isotonic")
        .put("labels", labels).put("blocks", bs);
    if (fittedAtMs > 0) {
      j.put("fittedAt", java.time.Instant.ofEpochMilli(fittedAtMs).toString());
    }
    putNumber(j, "eceBefore", eceBefore);
    putNumber(j, "eceAfter", eceAfter);
    return j;
  }

  /** The stored model: just the blocks. */
  public String modelJson() {
    return toJson().getJsonArray("blocks").encode();
  }

  public static List<Isotonic.Block> blocksFromJson(String json) {
    List<Isotonic.Block> out = new ArrayList<>();
    for (Object o : new JsonArray(json)) {
      JsonObject b = (JsonObject) o;
      out.add(new Isotonic.Block(b.getDouble("xMin"), b.getDouble("xMax"), b.getDouble("value"), b.getInteger("weight")));
    }
    return List.copyOf(out);
  }

  private static void putNumber(JsonObject j, String key, double v) {
    if (Double.isNaN(v)) {
      j.putNull(key);
    } else {
      j.put(key, v);
    }
  }
}
