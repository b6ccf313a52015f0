package dev.argus.decide;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The peers' distribution of each signal: the raw values of the last {@value #KEEP} subjects decided under the same
 * profile (live decisions of this process), so that an explanation can say how this subject compares with normal
 * behaviour ("velocity 8.2: higher than 97% of 312 peers, median 1.1"). Used on the engine's context only.
 */
public final class PeerStats {

  static final int KEEP = 2_000;
  private final Map<String, Deque<Double>> values = new HashMap<>();

  /** Adds a subject's value (after it was compared, so a subject is never its own peer). */
  public void add(String profile, String signal, double value) {
    Deque<Double> d = values.computeIfAbsent(profile + "/" + signal, k -> new ArrayDeque<>());
    d.addLast(value);
    if (d.size() > KEEP) {
      d.removeFirst();
    }
  }

  /** {@code null} without peers; else peers, share of peers below the value, median and p90 of the peers. */
  public Comparison compare(String profile, String signal, double value) {
    Deque<Double> d = values.get(profile + "/" + signal);
    if (d == null || d.isEmpty()) {
      return null;
    }
    List<Double> sorted = new ArrayList<>(d);
    Collections.sort(sorted);
    long below = sorted.stream().filter(v -> v < value).count();
    return new Comparison(sorted.size(), (double) below / sorted.size(), percentile(sorted, 0.5),
        percentile(sorted, 0.9));
  }

  static double percentile(List<Double> sorted, double p) {
    int i = (int) Math.ceil(p * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
  }

  /** How a value compares with its peers. */
  public record Comparison(int peers, double shareBelow, double median, double p90) {
  }
}
