package dev.argus.ingest;

import dev.argus.common.ApiException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Arrays;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A leading front matter block: a line {@code ---}, then {@code key: value} lines, then {@code ---}. Keys
 * {@code id}, {@code title}, {@code namespace} and {@code source} set the document's fields; every other key
 * is metadata, with integers and decimals as numbers, {@code true}/{@code false} as booleans, {@code [a, b]}
 * and the {@code tags} key (a comma list) as lists of strings, and everything else (ISO dates included) as
 * strings. Quotes around a value are removed.
 */
public final class FrontMatter {

  public static final Set<String> FIELD_KEYS = Set.of("id", "title", "namespace", "source");
  private static final Pattern INTEGER = Pattern.compile("[-+]?\\d{1,18}");
  private static final Pattern DECIMAL = Pattern.compile("[-+]?\\d+\\.\\d+");
  private static final Pattern KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,63}");

  /** The fields, the metadata and the body that follows the block. */
  public record Result(JsonObject fields, JsonObject metadata, String body) {
  }

  private FrontMatter() {
  }

  /** Splits off a front matter block if the content starts with one; otherwise empty fields and the whole content. */
  public static Result parse(String content) {
    String text = content.startsWith("\uFEFF") ? content.substring(1) : content;
    String[] lines = text.split("\r?\n", -1);
    if (lines.length == 0 || !lines[0].strip().equals("---")) {
      return new Result(new JsonObject(), new JsonObject(), text);
    }
    JsonObject fields = new JsonObject();
    JsonObject metadata = new JsonObject();
    for (int i = 1; i < lines.length; i++) {
      String line = lines[i];
      if (line.strip().equals("---")) {
        String body = String.join("\n", Arrays.asList(lines).subList(i + 1, lines.length));
        return new Result(fields, metadata, body);
      }
      if (line.isBlank() || line.stripLeading().startsWith("#")) {
        continue;
      }
      int colon = line.indexOf(':');
      String key = colon < 0 ? "" : line.substring(0, colon).strip();
      if (colon < 0 || !KEY.matcher(key).matches()) {
        throw ApiException.badRequest("invalid_front_matter", "front matter line " + (i + 1)
            + ": expected 'key: value', got '" + abbreviate(line) + "'");
      }
      String raw = line.substring(colon + 1).strip();
      if (FIELD_KEYS.contains(key)) {
        fields.put(key, unquote(raw));
      } else {
        metadata.put(key, value(key, raw));
      }
    }
    throw ApiException.badRequest("invalid_front_matter", "front matter starts with '---' but has no closing '---'");
  }

  static Object value(String key, String raw) {
    if (raw.startsWith("[") && raw.endsWith("]")) {
      return list(raw.substring(1, raw.length() - 1));
    }
    if (key.equals("tags")) {
      return list(raw);
    }
    if (raw.startsWith("\"") || raw.startsWith("'")) {
      return unquote(raw);
    }
    if (raw.equals("true") || raw.equals("false")) {
      return Boolean.parseBoolean(raw);
    }
    if (INTEGER.matcher(raw).matches()) {
      return Long.parseLong(raw);
    }
    if (DECIMAL.matcher(raw).matches()) {
      return Double.parseDouble(raw);
    }
    return raw;
  }

  private static JsonArray list(String raw) {
    JsonArray out = new JsonArray();
    for (String part : raw.split(",")) {
      String item = unquote(part.strip());
      if (!item.isEmpty()) {
        out.add(item);
      }
    }
    return out;
  }

  static String unquote(String raw) {
    String s = raw.strip();
    if (s.length() >= 2 && ((s.startsWith("\"") && s.endsWith("\"")) || (s.startsWith("'") && s.endsWith("'")))) {
      return s.substring(1, s.length() - 1);
    }
    return s;
  }

  private static String abbreviate(String s) {
    return s.length() <= 60 ? s : s.substring(0, 60) + "...";
  }
}
