package dev.argus.knowledge.pg;

import dev.argus.knowledge.MetadataCondition;
import dev.argus.knowledge.SearchFilter;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns a {@link SearchFilter} into a parameterized SQL condition on the {@code chunks} alias {@code c}
 * (namespace column plus the chunk's copy of its document's {@code metadata} jsonb), so every retriever
 * filters inside its own scan, before the top-k cut. Metadata keys become a jsonb path (dots nest);
 * EQ/IN match strings, numbers (numerically) and booleans, also inside JSON arrays; ranges compare numbers
 * numerically and strings (ISO dates) lexically with the "C" collation. Values are always bind parameters.
 */
final class PgFilterSql {

  private final StringBuilder sql = new StringBuilder();
  private final List<Object> params;

  private PgFilterSql(List<Object> params) {
    this.params = params;
  }

  /**
   * A leg statement's filter conditions ({@code where}, each starting with {@code AND}; empty without a filter) and
   * its {@code LIMIT} clause.
   */
  record Clauses(String where, String limit) {
  }

  /**
   * The filter's conditions and the statement's limit of {@code k} hits; their values are added to {@code params},
   * whose current size gives the next placeholder number. Without a filter, k is written into the statement: its
   * plan then does not depend on the values bound, and the server, after five executions, plans it once for all
   * (a generic plan) instead of for every execution (with {@code LIMIT $n} it rated the generic plan dearer, not
   * knowing how many rows the sort keeps, and planned each time: 0.34 ms a vector statement, 1.1 ms a keyword
   * statement at 100,000 chunks). With a filter, k is bound after the filter's values, so that the statement is
   * still planned for them: they decide between the index and other scans.
   *
   * @param k how many hits (a count the service computes, never user input)
   */
  static Clauses clauses(SearchFilter filter, int k, List<Object> params) {
    String where = where(filter, params);
    if (where.isEmpty()) {
      return new Clauses(where, " LIMIT " + k);
    }
    params.add(k);
    return new Clauses(where, " LIMIT $" + params.size());
  }

  /**
   * Appends the filter's conditions (each starting with {@code AND}) and adds their values to {@code params},
   * whose current size gives the next placeholder number.
   */
  private static String where(SearchFilter filter, List<Object> params) {
    PgFilterSql f = new PgFilterSql(params);
    if (filter == null) {
      return "";
    }
    if (filter.namespace() != null) {
      f.sql.append(" AND c.namespace = ").append(f.param(filter.namespace()));
    }
    if (filter.allowedNamespaces() != null) {
      f.sql.append(" AND c.namespace = ANY(").append(f.param(filter.allowedNamespaces().toArray(new String[0])))
          .append("::text[])");
    }
    for (MetadataCondition condition : filter.conditions()) {
      f.sql.append(" AND (").append(f.condition(condition)).append(')');
    }
    return f.sql.toString();
  }

  private String param(Object value) {
    params.add(value);
    return "$" + params.size();
  }

  private String condition(MetadataCondition c) {
    String path = param(c.key().split("\\.")) + "::text[]";
    String node = "(c.metadata #> " + path + ")";
    String text = "(c.metadata #>> " + path + ")";
    String number = "(CASE WHEN jsonb_typeof(" + node + ") = 'number' THEN " + text + "::numeric END)";
    return switch (c.op()) {
      case EQ, IN -> "(" + membership(c.values(), node, text, number) + ") AND (" + containment(c) + ")";
      case GT, GTE, LT, LTE -> range(c, node, text, number);
    };
  }

  /**
   * The same EQ/IN condition as jsonb containment ({@code metadata @> {"key": v}} or {@code {"key": [v]}}): implied by
   * the exact condition, so it changes no result, but the GIN index on {@code metadata} can answer it, which lets
   * the planner start from the few matching rows when a filter is selective instead of walking the HNSW graph.
   */
  private String containment(MetadataCondition c) {
    String[] path = c.key().split("\\.");
    List<String> shapes = new ArrayList<>();
    for (Object v : c.values()) {
      shapes.add("c.metadata @> " + param(nest(path, v).encode()) + "::text::jsonb");
      shapes.add("c.metadata @> " + param(nest(path, new io.vertx.core.json.JsonArray().add(v)).encode()) + "::text::jsonb");
    }
    return String.join(" OR ", shapes);
  }

  private static io.vertx.core.json.JsonObject nest(String[] path, Object value) {
    Object inner = value;
    for (int i = path.length - 1; i >= 0; i--) {
      inner = new io.vertx.core.json.JsonObject().put(path[i], inner);
    }
    return (io.vertx.core.json.JsonObject) inner;
  }

  private String membership(List<Object> values, String node, String text, String number) {
    List<String> strings = new ArrayList<>();
    List<String> numbers = new ArrayList<>();
    List<Boolean> booleans = new ArrayList<>();
    for (Object v : values) {
      if (v instanceof String s) {
        strings.add(s);
      } else if (v instanceof Number n) {
        numbers.add(numberText(n));
      } else if (v instanceof Boolean b) {
        booleans.add(b);
      }
    }
    List<String> alternatives = new ArrayList<>();
    String array = "(CASE WHEN jsonb_typeof(" + node + ") = 'array' THEN " + node + " END)";
    if (!strings.isEmpty()) {
      String p = param(strings.toArray(String[]::new)) + "::text[]";
      alternatives.add("(jsonb_typeof(" + node + ") = 'string' AND " + text + " = ANY(" + p + "))");
      alternatives.add("(" + array + " ?| " + p + ")");
    }
    if (!numbers.isEmpty()) {
      String p = param(numbers.toArray(String[]::new)) + "::text[]::numeric[]";
      alternatives.add("(" + number + " = ANY(" + p + "))");
      alternatives.add("EXISTS (SELECT 1 FROM jsonb_array_elements(" + array + ") e WHERE jsonb_typeof(e) = 'number'"
          + " AND (e #>> '{}')::numeric = ANY(" + p + "))");
    }
    for (Boolean b : booleans) {
      String p = param(b) + "::boolean";
      alternatives.add("(" + node + " = to_jsonb(" + p + "))");
      alternatives.add("(" + array + " @> jsonb_build_array(" + p + "))");
    }
    return String.join(" OR ", alternatives);
  }

  private String range(MetadataCondition c, String node, String text, String number) {
    String op = switch (c.op()) {
      case GT -> ">";
      case GTE -> ">=";
      case LT -> "<";
      case LTE -> "<=";
      default -> throw new IllegalArgumentException(c.op().toString());
    };
    Object v = c.value();
    if (v instanceof Number n) {
      return number + " " + op + " " + param(numberText(n)) + "::text::numeric";
    }
    if (v instanceof String s) {
      return "jsonb_typeof(" + node + ") = 'string' AND " + text + " COLLATE \"C\" " + op + " "
          + param(s) + "::text COLLATE \"C\"";
    }
    return "FALSE"; // a boolean has no order: nothing matches, as on the embedded store
  }

  private static String numberText(Number n) {
    if (n instanceof Double d && (d.isNaN() || d.isInfinite()) || n instanceof Float f && (f.isNaN() || f.isInfinite())) {
      return "NaN";
    }
    return new java.math.BigDecimal(n.toString()).toPlainString();
  }
}
