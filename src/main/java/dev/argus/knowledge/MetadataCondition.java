package dev.argus.knowledge;

import dev.argus.common.ApiException;

import java.util.List;
import java.util.regex.Pattern;

/**
 * One metadata filter condition, applied inside each retriever (before the top-k cut).
 * {@code EQ}/{@code IN} compare strings or numbers; range operators compare numbers numerically and
 * ISO-8601 date strings lexically.
 */
public record MetadataCondition(String key, Op op, List<Object> values) {

  /** Keys are plain identifiers; they end up in a JSON path, so nothing else is allowed. */
  public static final Pattern KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,63}");

  public enum Op { EQ, IN, GT, GTE, LT, LTE }

  public MetadataCondition {
    if (key == null || !KEY.matcher(key).matches()) {
      throw ApiException.badRequest("invalid_filter", "invalid metadata key: " + key);
    }
    if (values == null || values.isEmpty()) {
      throw ApiException.badRequest("invalid_filter", "filter on '" + key + "' has no value");
    }
    for (Object v : values) {
      if (!(v instanceof String) && !(v instanceof Number) && !(v instanceof Boolean)) {
        throw ApiException.badRequest("invalid_filter", "filter on '" + key + "' must use string, number or boolean values");
      }
    }
    if (op != Op.IN && values.size() != 1) {
      throw ApiException.badRequest("invalid_filter", "filter " + op + " on '" + key + "' takes exactly one value");
    }
    values = List.copyOf(values);
  }

  public Object value() {
    return values.get(0);
  }
}
