package dev.argus.agent.filters;

import java.util.Map;
import java.util.Set;

/**
 * The metadata fields the documents of a namespace carry, with their values (as stored) when there are few enough
 * to list; {@code open} fields have too many distinct values to check one against.
 */
public record KnownFields(Map<String, Set<String>> values, Set<String> open) {

  public KnownFields {
    values = Map.copyOf(values);
    open = Set.copyOf(open);
  }

  public boolean has(String field) {
    return values.containsKey(field) || open.contains(field);
  }
}
