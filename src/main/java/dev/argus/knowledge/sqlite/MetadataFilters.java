package dev.argus.knowledge.sqlite;

import dev.argus.knowledge.MetadataCondition;
import dev.argus.knowledge.SearchFilter;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.regex.Pattern;

/**
 * One meaning of {@link SearchFilter} in two forms: an SQL predicate over {@code d.namespace} and
 * {@code d.metadata} (for the keyword and trigram legs, bound parameters only) and an in-memory predicate
 * (for the vector leg). Semantics: a key names a (dot-separated, nested) metadata field; when the field holds
 * an array, a condition holds if it holds for any element. Numbers compare numerically (a string that is a
 * plain decimal number, such as {@code "2020"}, counts as that number); strings compare lexically, which orders
 * ISO dates; booleans support EQ/IN only. A missing field never matches.
 */
final class MetadataFilters {

  /** Plain decimal numbers as SQLite prints them back (no leading zeros, no trailing fractional zeros). */
  private static final Pattern CANONICAL_NUMBER = Pattern.compile("-?(0|[1-9][0-9]{0,14})(\\.[0-9]*[1-9])?");

  private MetadataFilters() {
  }

  /** A JSON path for SQLite's JSON functions: {@code $."a"."b"} (keys are validated by MetadataCondition.KEY). */
  static String jsonPath(String key) {
    StringBuilder sb = new StringBuilder("$");
    for (String part : key.split("\\.")) {
      sb.append(".\"").append(part).append('"');
    }
    return sb.toString();
  }

  /** Appends {@code AND ...} clauses for the filter to {@code sql} and their parameters to {@code params}. */
  static void appendSql(SearchFilter filter, StringBuilder sql, List<Object> params) {
    if (filter == null) {
      return;
    }
    if (filter.namespace() != null) {
      sql.append(" AND d.namespace = ?");
      params.add(filter.namespace());
    }
    for (MetadataCondition c : filter.conditions()) {
      sql.append(" AND EXISTS (SELECT 1 FROM json_each(d.metadata, ?) j WHERE ");
      params.add(jsonPath(c.key()));
      if (c.op() == MetadataCondition.Op.IN || c.op() == MetadataCondition.Op.EQ) {
        sql.append('(');
        for (int i = 0; i < c.values().size(); i++) {
          if (i > 0) {
            sql.append(" OR ");
          }
          appendComparison(c.values().get(i), "=", sql, params);
        }
        sql.append(')');
      } else {
        appendComparison(c.value(), sqlOperator(c.op()), sql, params);
      }
      sql.append(')');
    }
  }

  private static void appendComparison(Object value, String op, StringBuilder sql, List<Object> params) {
    if (value instanceof Boolean b) {
      if ("=".equals(op)) {
        sql.append("j.type = ?");
        params.add(b ? "true" : "false");
      } else {
        sql.append("0");
      }
    } else if (value instanceof Number n) {
      Object bound = numberParam(n);
      sql.append("((j.type IN ('integer', 'real') AND j.value ").append(op).append(" ?)")
          .append(" OR (j.type = 'text' AND CAST(j.value AS NUMERIC) || '' = j.value AND CAST(j.value AS NUMERIC) ")
          .append(op).append(" ?))");
      params.add(bound);
      params.add(bound);
    } else {
      sql.append("(j.type = 'text' AND j.value ").append(op).append(" ?)");
      params.add(value.toString());
    }
  }

  private static Object numberParam(Number n) {
    double d = n.doubleValue();
    if (n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte) {
      return n.longValue();
    }
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? (Object) (long) d : (Object) d;
  }

  private static String sqlOperator(MetadataCondition.Op op) {
    return switch (op) {
      case EQ, IN -> "=";
      case GT -> ">";
      case GTE -> ">=";
      case LT -> "<";
      case LTE -> "<=";
    };
  }

  /** The in-memory form: does a document with this namespace and metadata pass the filter? */
  static boolean matches(SearchFilter filter, String namespace, JsonObject metadata) {
    if (filter == null) {
      return true;
    }
    if (filter.namespace() != null && !filter.namespace().equals(namespace)) {
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
