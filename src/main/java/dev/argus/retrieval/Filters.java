package dev.argus.retrieval;

import dev.argus.common.ApiException;
import dev.argus.knowledge.MetadataCondition;
import dev.argus.knowledge.MetadataCondition.Op;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code filters} object of a search request, to and from {@link MetadataCondition}s.
 *
 * <p>Shapes (every key must hold for a chunk to match):
 * <ul>
 *   <li>{@code {"category": "policy"}}: equality (string, number or boolean);</li>
 *   <li>{@code {"tags": ["a", "b"]}} or {@code {"tags": {"in": ["a", "b"]}}}: membership;</li>
 *   <li>{@code {"year": {"gte": 2020, "lt": 2024}}}: a numeric range;</li>
 *   <li>{@code {"date": {"gte": "2024-01-01"}}}: a date range on ISO-8601 strings ({@code yyyy},
 *       {@code yyyy-MM}, {@code yyyy-MM-dd} or a date-time), compared lexically;</li>
 *   <li>{@code {"k": {"eq": v}}} is the long form of equality.</li>
 * </ul>
 * Operators: {@code eq, in, gt, gte, lt, lte}. Anything else is a 400 {@code invalid_filter} that names the key.
 */
public final class Filters {

  /** At most this many keys in one filters object, values in one {@code in} list, and characters in one value. */
  public static final int MAX_KEYS = 32;
  public static final int MAX_IN_VALUES = 100;
  public static final int MAX_VALUE_CHARS = 512;

  private static final Pattern ISO_DATE = Pattern.compile(
      "(\\d{4})(?:-(\\d{2})(?:-(\\d{2})(?:[T ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,9})?)?(?:Z|[+-]\\d{2}:?\\d{2})?)?)?)?");

  private static final Map<String, Op> OPERATORS = Map.of(
      "eq", Op.EQ, "in", Op.IN, "gt", Op.GT, "gte", Op.GTE, "lt", Op.LT, "lte", Op.LTE);

  private Filters() {
  }

  /** Parses a filters object ({@code null} means none); throws a 400 {@code invalid_filter} on any problem. */
  public static List<MetadataCondition> parse(JsonObject filters) {
    List<MetadataCondition> out = new ArrayList<>();
    if (filters == null) {
      return out;
    }
    if (filters.size() > MAX_KEYS) {
      throw invalid("too many filter keys (at most " + MAX_KEYS + ")");
    }
    for (Map.Entry<String, Object> e : filters) {
      String key = e.getKey();
      if (key == null || !MetadataCondition.KEY.matcher(key).matches()) {
        throw invalid("invalid metadata key '" + key + "': use letters, digits, '_', '.', '-' (at most 64)");
      }
      Object value = e.getValue();
      if (value == null) {
        throw invalid("filter on '" + key + "' has no value");
      } else if (value instanceof JsonArray array) {
        out.add(new MetadataCondition(key, Op.IN, inValues(key, array)));
      } else if (value instanceof JsonObject ops) {
        if (ops.isEmpty()) {
          throw invalid("filter on '" + key + "' has no operator; use eq, in, gt, gte, lt or lte");
        }
        for (Map.Entry<String, Object> op : ops) {
          out.add(operator(key, op.getKey(), op.getValue()));
        }
      } else {
        out.add(new MetadataCondition(key, Op.EQ, List.of(scalar(key, value))));
      }
    }
    return out;
  }

  private static MetadataCondition operator(String key, String name, Object value) {
    Op op = name == null ? null : OPERATORS.get(name.toLowerCase(Locale.ROOT));
    if (op == null) {
      throw invalid("unknown operator '" + name + "' in filter on '" + key + "'; use eq, in, gt, gte, lt or lte");
    }
    if (value == null) {
      throw invalid("operator '" + name + "' in filter on '" + key + "' has no value");
    }
    switch (op) {
      case IN -> {
        if (!(value instanceof JsonArray array)) {
          throw invalid("operator 'in' in filter on '" + key + "' takes a list of values");
        }
        return new MetadataCondition(key, Op.IN, inValues(key, array));
      }
      case EQ -> {
        return new MetadataCondition(key, Op.EQ, List.of(scalar(key, value)));
      }
      default -> {
        return new MetadataCondition(key, op, List.of(rangeValue(key, name, value)));
      }
    }
  }

  private static List<Object> inValues(String key, JsonArray array) {
    if (array.isEmpty()) {
      throw invalid("filter on '" + key + "' has an empty list of values");
    }
    if (array.size() > MAX_IN_VALUES) {
      throw invalid("filter on '" + key + "' has more than " + MAX_IN_VALUES + " values");
    }
    List<Object> values = new ArrayList<>();
    for (Object v : array) {
      values.add(scalar(key, v));
    }
    return values;
  }

  private static Object scalar(String key, Object value) {
    if (value instanceof String s) {
      if (s.length() > MAX_VALUE_CHARS) {
        throw invalid("a value of the filter on '" + key + "' is longer than " + MAX_VALUE_CHARS + " characters");
      }
      return s;
    }
    if (value instanceof Number n) {
      if (Double.isNaN(n.doubleValue()) || Double.isInfinite(n.doubleValue())) {
        throw invalid("filter on '" + key + "' has a non-finite number");
      }
      return n;
    }
    if (value instanceof Boolean) {
      return value;
    }
    throw invalid("filter on '" + key + "' must use string, number or boolean values, got "
        + (value == null ? "null" : value instanceof JsonObject ? "an object" : value instanceof JsonArray ? "a list"
        : value.getClass().getSimpleName()));
  }

  /** A range bound: a number, or an ISO-8601 date string (validated as a real calendar date). */
  private static Object rangeValue(String key, String op, Object value) {
    if (value instanceof Number) {
      return scalar(key, value);
    }
    if (value instanceof String s && isIsoDate(s)) {
      return s;
    }
    throw invalid("operator '" + op + "' in filter on '" + key
        + "' takes a number or an ISO date (yyyy-MM-dd), got " + (value instanceof String s ? "'" + s + "'" : value));
  }

  /** True for {@code yyyy}, {@code yyyy-MM}, {@code yyyy-MM-dd} and ISO date-times with a real date. */
  public static boolean isIsoDate(String s) {
    Matcher m = ISO_DATE.matcher(s);
    if (!m.matches()) {
      return false;
    }
    try {
      int year = Integer.parseInt(m.group(1));
      int month = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
      int day = m.group(3) == null ? 1 : Integer.parseInt(m.group(3));
      LocalDate.of(year, month, day);
      return true;
    } catch (DateTimeException e) {
      return false;
    }
  }

  /** The wire shape of one condition: {@code {key, op, value}}, or {@code {key, op: "in", values}}. */
  public static JsonObject toJson(MetadataCondition c) {
    JsonObject json = new JsonObject().put("key", c.key()).put("op", c.op().name().toLowerCase(Locale.ROOT));
    if (c.op() == Op.IN) {
      json.put("values", new JsonArray(new ArrayList<>(c.values())));
    } else {
      json.put("value", c.value());
    }
    return json;
  }

  /** The inverse of {@link #toJson(MetadataCondition)}; 400 {@code invalid_filter} when malformed. */
  public static MetadataCondition conditionFromJson(JsonObject json) {
    String op = json.getValue("op") instanceof String s ? s : null;
    Op parsed = op == null ? null : OPERATORS.get(op.toLowerCase(Locale.ROOT));
    if (parsed == null) {
      throw invalid("unknown operator '" + op + "'; use eq, in, gt, gte, lt or lte");
    }
    List<Object> values = new ArrayList<>();
    if (parsed == Op.IN) {
      JsonArray array = json.getJsonArray("values", new JsonArray());
      array.forEach(values::add);
    } else {
      values.add(json.getValue("value"));
    }
    return new MetadataCondition(json.getString("key"), parsed, values);
  }

  public static JsonArray toJson(List<MetadataCondition> conditions) {
    JsonArray array = new JsonArray();
    conditions.forEach(c -> array.add(toJson(c)));
    return array;
  }

  /** The inverse of {@link #parse}: a filters object in the request shape (round-trips through {@code parse}). */
  public static JsonObject toFiltersObject(List<MetadataCondition> conditions) {
    Map<String, List<MetadataCondition>> byKey = new LinkedHashMap<>();
    for (MetadataCondition c : conditions) {
      byKey.computeIfAbsent(c.key(), k -> new ArrayList<>()).add(c);
    }
    JsonObject out = new JsonObject();
    byKey.forEach((key, list) -> {
      if (list.size() == 1 && list.get(0).op() == Op.EQ) {
        out.put(key, list.get(0).value());
      } else if (list.size() == 1 && list.get(0).op() == Op.IN) {
        out.put(key, new JsonArray(new ArrayList<>(list.get(0).values())));
      } else {
        JsonObject ops = new JsonObject();
        for (MetadataCondition c : list) {
          String op = c.op().name().toLowerCase(Locale.ROOT);
          ops.put(op, c.op() == Op.IN ? new JsonArray(new ArrayList<>(c.values())) : c.value());
        }
        out.put(key, ops);
      }
    });
    return out;
  }

  private static ApiException invalid(String message) {
    return ApiException.badRequest("invalid_filter", message);
  }
}
