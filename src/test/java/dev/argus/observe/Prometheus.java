package dev.argus.observe;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;

/** Reads samples out of Prometheus text (test helper): the value of the one series with a name and labels. */
final class Prometheus {

  private final String text;

  Prometheus(String text) {
    this.text = text;
  }

  /** The value of series {@code name} whose labels include {@code labels} ({@code k1, v1, k2, v2, ...}); summed if several. */
  OptionalDouble value(String name, String... labels) {
    double sum = 0;
    boolean found = false;
    for (String line : text.split("\n")) {
      if (line.startsWith("#") || !(line.startsWith(name + "{") || line.startsWith(name + " "))) {
        continue;
      }
      Map<String, String> got = labels(line);
      boolean all = true;
      for (int i = 0; i < labels.length; i += 2) {
        all &= labels[i + 1].equals(got.get(labels[i]));
      }
      if (all) {
        found = true;
        sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return found ? OptionalDouble.of(sum) : OptionalDouble.empty();
  }

  double require(String name, String... labels) {
    return value(name, labels).orElseThrow(() -> new AssertionError("no series " + name + " "
        + String.join(",", labels) + " in:\n" + grep(name)));
  }

  String grep(String prefix) {
    StringBuilder sb = new StringBuilder();
    for (String line : text.split("\n")) {
      if (line.startsWith(prefix)) {
        sb.append(line).append('\n');
      }
    }
    return sb.toString();
  }

  private static Map<String, String> labels(String line) {
    Map<String, String> out = new LinkedHashMap<>();
    int open = line.indexOf('{');
    int close = line.lastIndexOf('}');
    if (open < 0 || close < open) {
      return out;
    }
    for (String pair : line.substring(open + 1, close).split(",")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        out.put(pair.substring(0, eq), pair.substring(eq + 2, pair.length() - 1));
      }
    }
    return out;
  }
}
