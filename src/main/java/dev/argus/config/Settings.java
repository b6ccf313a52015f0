package dev.argus.config;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Arrays;
import java.util.List;

/**
 * Typed, validated access to one configuration section. Every error names the setting and the
 * environment variable that overrides it, e.g. {@code http.port (env ARGUS_HTTP_PORT): must be ...}.
 */
public final class Settings {

  private final String section;
  private final JsonObject json;

  public Settings(String section, JsonObject json) {
    this.section = section;
    this.json = json == null ? new JsonObject() : json;
  }

  public static Settings of(JsonObject root, String section) {
    Object value = root.getValue(section);
    if (value != null && !(value instanceof JsonObject)) {
      throw new ConfigException(section + ": must be a JSON object");
    }
    return new Settings(section, (JsonObject) value);
  }

  public JsonObject json() {
    return json;
  }

  public ConfigException error(String key, String message) {
    return new ConfigException(section + "." + key + " (env " + ConfigLoader.envName(section, key) + "): " + message);
  }

  public String string(String key, String def) {
    Object v = json.getValue(key);
    if (v == null) {
      return def;
    }
    if (!(v instanceof String s)) {
      throw error(key, "must be a string, got " + v);
    }
    return s;
  }

  public String nonBlank(String key, String def) {
    String s = string(key, def);
    if (s == null || s.isBlank()) {
      throw error(key, "must not be empty");
    }
    return s;
  }

  public String oneOf(String key, String def, String... allowed) {
    String s = string(key, def);
    if (!Arrays.asList(allowed).contains(s)) {
      throw error(key, "must be one of " + String.join(", ", allowed) + ", got '" + s + "'");
    }
    return s;
  }

  public long longIn(String key, long def, long min, long max) {
    Object v = json.getValue(key);
    if (v == null) {
      return def;
    }
    if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())) {
      throw error(key, "must be an integer, got " + v);
    }
    long l = n.longValue();
    if (l < min || l > max) {
      throw error(key, "must be between " + min + " and " + max + ", got " + l);
    }
    return l;
  }

  public int intIn(String key, int def, int min, int max) {
    return (int) longIn(key, def, min, max);
  }

  public double doubleIn(String key, double def, double min, double max) {
    Object v = json.getValue(key);
    if (v == null) {
      return def;
    }
    if (!(v instanceof Number n)) {
      throw error(key, "must be a number, got " + v);
    }
    double d = n.doubleValue();
    if (Double.isNaN(d) || d < min || d > max) {
      throw error(key, "must be between " + min + " and " + max + ", got " + d);
    }
    return d;
  }

  public boolean bool(String key, boolean def) {
    Object v = json.getValue(key);
    if (v == null) {
      return def;
    }
    if (!(v instanceof Boolean b)) {
      throw error(key, "must be true or false, got " + v);
    }
    return b;
  }

  public JsonObject object(String key, JsonObject def) {
    Object v = json.getValue(key);
    if (v == null) {
      return def;
    }
    if (!(v instanceof JsonObject o)) {
      throw error(key, "must be a JSON object, got " + v);
    }
    return o;
  }

  public List<String> strings(String key, List<String> def) {
    Object v = json.getValue(key);
    if (v == null) {
      return def;
    }
    if (!(v instanceof JsonArray a) || a.stream().anyMatch(e -> !(e instanceof String))) {
      throw error(key, "must be a list of strings, got " + v);
    }
    return a.stream().map(String.class::cast).toList();
  }
}
