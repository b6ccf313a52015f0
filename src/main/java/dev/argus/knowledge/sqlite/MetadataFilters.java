package dev.argus.knowledge.sqlite;

import dev.argus.knowledge.MetadataCondition;
import dev.argus.knowledge.SearchFilter;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.regex.Pattern;

/**
 * What {@link SearchFilter} means in the embedded store: an in-memory predicate over a document's namespace and
 * metadata, evaluated inside every leg's search (the vector scan, the text index's filter clause). Semantics: a key names a (dot-separated, nested) metadata field; when the field holds
 * an array, a condition holds if it holds for any element. Numbers compare numerically (a string that is a
 * plain decimal number, such as {@code "2020"}, counts as that number); strings compare lexically, which orders
 * ISO dates; booleans support EQ/IN only. A missing field never matches.
 */
final class MetadataFilters {

  /** Plain decimal numbers as SQLite prints them back (no leading zeros, no trailing fractional zeros). */
  private static final Pattern CANONICAL_NUMBER = Pattern.compile("-?(0|[1-9][0-9]{0,14})(\\.[0-9]*[1-9])?");

  private MetadataFilters() {
  }

  /** The in-memory form: does a document with this namespace and metadata pass the filter? */
  static boolean matches(SearchFilter filter, String namespace, JsonObject metadata) {
    if (filter == null) {
      return true;
    }
    if (filter.namespace() != null && !filter.namespace().equals(namespace)) {
      return false;
    }
    if (!filter.allows(namespace)) {
      return false;
    }
    for (MetadataCondition c : filter.conditions()) {
      if (!matches(c, metadata)) {
        return false;
      }
    }
    return true;
  }

  static boolean matches(MetadataCondition c, JsonObject metadata) {
    Object field = lookup(metadata, c.key());
    if (field == null) {
      return false;
    }
    if (field instanceof JsonArray array) {
      for (Object element : array) {
        if (element != null && holds(c, element)) {
          return true;
        }
      }
      return false;
    }
    return holds(c, field);
  }

  private static Object lookup(JsonObject metadata, String key) {
    Object current = metadata;
    for (String part : key.split("\\.")) {
      if (!(current instanceof JsonObject obj)) {
        return null;
      }
      current = obj.getValue(part);
    }
    return current;
  }

  private static boolean holds(MetadataCondition c, Object field) {
    if (c.op() == MetadataCondition.Op.EQ || c.op() == MetadataCondition.Op.IN) {
      for (Object v : c.values()) {
        Integer cmp = compare(field, v);
        if (cmp != null && cmp == 0) {
          return true;
        }
      }
      return false;
    }
    Integer cmp = compare(field, c.value());
    if (cmp == null || c.value() instanceof Boolean) {
      return false;
    }
    return switch (c.op()) {
      case GT -> cmp > 0;
      case GTE -> cmp >= 0;
      case LT -> cmp < 0;
      case LTE -> cmp <= 0;
      default -> false;
    };
  }

  /** field compared with the condition value, or {@code null} when their types do not compare. */
  private static Integer compare(Object field, Object value) {
    if (value instanceof Boolean b) {
      return field instanceof Boolean f ? (f.equals(b) ? 0 : 1) : null;
    }
    if (value instanceof Number n) {
      if (field instanceof Number f) {
        return Double.compare(f.doubleValue(), n.doubleValue());
      }
      if (field instanceof String s && CANONICAL_NUMBER.matcher(s).matches()) {
        return Double.compare(Double.parseDouble(s), n.doubleValue());
      }
      return null;
    }
    if (field instanceof String s) {
      return Integer.signum(s.compareTo(value.toString()));
    }
    return null;
  }
}
