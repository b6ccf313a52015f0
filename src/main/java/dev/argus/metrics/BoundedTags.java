package dev.argus.metrics;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Keeps one label's values bounded: the first {@code max} distinct well-formed values pass, anything later (or
 * malformed: not {@code [A-Za-z0-9_.:-]{1,64}}) becomes {@code other}. For names that configuration defines
 * (profiles, tools), which a client cannot invent, the limit is a safety net, not a sampling policy.
 */
public final class BoundedTags {

  public static final String OTHER = "other";
  private static final Pattern WELL_FORMED = Pattern.compile("[A-Za-z0-9_.:-]{1,64}");

  private final int max;
  private final Set<String> seen = ConcurrentHashMap.newKeySet();

  public BoundedTags(int max) {
    this.max = max;
  }

  public String of(String value) {
    if (value == null || !WELL_FORMED.matcher(value).matches()) {
      return OTHER;
    }
    if (seen.contains(value)) {
      return value;
    }
    synchronized (this) {
      if (seen.size() < max) {
        seen.add(value);
        return value;
      }
    }
    return seen.contains(value) ? value : OTHER;
  }
}
