package dev.argus.agent.filters;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks metadata filters a model proposed against the fields and values the documents really have: a filter on a
 * field no document carries is dropped; an equality or membership on a value no document has is relaxed (the value
 * dropped, the key too when nothing is left); a value that differs only in case takes the stored spelling; ranges on
 * known fields stay. Every change is said in a note, so the run shows why a filter was not applied.
 */
public final class FilterCheck {

  private FilterCheck() {
  }

  /** The filters that stand and the notes about the ones that did not. */
  public record Result(JsonObject filters, List<String> notes) {
  }

  public static Result check(JsonObject proposed, KnownFields known) {
    JsonObject kept = new JsonObject();
    List<String> notes = new ArrayList<>();
    if (proposed == null) {
      return new Result(kept, notes);
    }
    for (Map.Entry<String, Object> e : proposed) {
      String field = e.getKey();
      Object value = e.getValue();
      if (!known.has(field)) {
        notes.add("dropped the filter on '" + field + "': no document has that field");
        continue;
      }
      Set<String> values = known.values().get(field);
      if (values == null) {
        kept.put(field, value); // an open field: any value may exist
        continue;
      }
      if (value instanceof JsonObject ops) {
        JsonObject keptOps = new JsonObject();
        for (Map.Entry<String, Object> op : ops) {
          if ("eq".equals(op.getKey()) || "in".equals(op.getKey())) {
            Object v = "in".equals(op.getKey()) ? relaxList(field, op.getValue(), values, notes)
                : relaxOne(field, op.getValue(), values, notes);
            if (v != null) {
              keptOps.put(op.getKey(), v);
            }
          } else {
            keptOps.put(op.getKey(), op.getValue()); // ranges on a known field stay
          }
        }
        if (!keptOps.isEmpty()) {
          kept.put(field, keptOps);
        }
      } else if (value instanceof JsonArray list) {
        Object v = relaxList(field, list, values, notes);
        if (v != null) {
          kept.put(field, v);
        }
      } else {
        Object v = relaxOne(field, value, values, notes);
        if (v != null) {
          kept.put(field, v);
        }
      }
    }
    return new Result(kept, notes);
  }

  private static Object relaxOne(String field, Object value, Set<String> values, List<String> notes) {
    if (!(value instanceof String s)) {
      return value; // numbers and booleans are compared as stored
    }
    String match = spelling(s, values);
    if (match == null) {
      notes.add("relaxed the filter " + field + " = '" + s + "': no document has that value");
    }
    return match;
  }

  private static Object relaxList(String field, Object value, Set<String> values, List<String> notes) {
    if (!(value instanceof JsonArray list)) {
      return relaxOne(field, value, values, notes);
    }
    JsonArray out = new JsonArray();
    for (Object v : list) {
      Object kept = relaxOne(field, v, values, notes);
      if (kept != null) {
        out.add(kept);
      }
    }
    return out.isEmpty() ? null : out;
  }

  /** The value as stored (matched without regard to case), or {@code null} when no document has it. */
  private static String spelling(String s, Set<String> values) {
    for (String v : values) {
      if (v.equalsIgnoreCase(s)) {
        return v;
      }
    }
    return null;
  }
}
