package dev.argus.config;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the configuration: the defaults shipped inside the jar ({@code conf/argus.json} on the classpath), then the
 * configuration file over them (every key it sets wins; it may set only some), then environment overrides. When the
 * file is the default {@code conf/argus.json} and the working directory has none, the shipped defaults are used
 * alone, so the jar runs from any folder; a file named explicitly must exist.
 *
 * <p>Every setting {@code <section>.<key>} of the file can be overridden by the environment variable
 * {@code ARGUS_<SECTION>_<KEY>}, the key written in upper snake case ({@code ingest.maxFileBytes} is
 * {@code ARGUS_INGEST_MAX_FILE_BYTES}). The value is converted to the type of the value in the file;
 * a value that does not convert stops start-up with a message that names the setting.
 */
public final class ConfigLoader {

  private ConfigLoader() {
  }

  public static JsonObject load(Path file, Map<String, String> env) {
    return load(file, env, Path.of(""));
  }

  /** {@link #load(Path, Map)} with a relative {@code file} resolved against {@code workingDir}. */
  static JsonObject load(Path file, Map<String, String> env, Path workingDir) {
    Path resolved = workingDir.resolve(file);
    Optional<Path> shipped = BundledFiles.bundled(DEFAULT_LOCATION);
    JsonObject json = shipped.map(ConfigLoader::read).orElseGet(JsonObject::new);
    if (Files.exists(resolved) || shipped.isEmpty() || !file.normalize().equals(Path.of(DEFAULT_LOCATION))) {
      json.mergeIn(read(resolved), true);
    }
    return applyEnv(json, env);
  }

  /** The classpath location of the shipped defaults, and the default configuration file. */
  public static final String DEFAULT_LOCATION = "conf/argus.json";

  private static JsonObject read(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new ConfigException("cannot read configuration file " + file + ": " + e.getMessage());
    }
    try {
      return new JsonObject(text);
    } catch (DecodeException e) {
      throw new ConfigException("configuration file " + file + " is not valid JSON: " + e.getMessage());
    }
  }

  /** Returns a copy of {@code json} with every matching {@code ARGUS_<SECTION>_<KEY>} variable applied. */
  public static JsonObject applyEnv(JsonObject json, Map<String, String> env) {
    JsonObject out = json.copy();
    for (String section : out.fieldNames()) {
      Object value = out.getValue(section);
      if (!(value instanceof JsonObject sectionJson)) {
        continue;
      }
      for (String key : sectionJson.fieldNames().toArray(String[]::new)) {
        String var = envName(section, key);
        String raw = env.get(var);
        if (raw != null) {
          sectionJson.put(key, convert(section + "." + key, var, raw, sectionJson.getValue(key)));
        }
      }
    }
    return out;
  }

  public static String envName(String section, String key) {
    return "ARGUS_" + snake(section) + "_" + snake(key);
  }

  static String snake(String camel) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < camel.length(); i++) {
      char c = camel.charAt(i);
      if (Character.isUpperCase(c) && i > 0) {
        sb.append('_');
      }
      sb.append(Character.toUpperCase(c));
    }
    return sb.toString();
  }

  private static Object convert(String setting, String var, String raw, Object template) {
    String value = raw.trim();
    try {
      if (template instanceof Integer || template instanceof Long) {
        return Long.parseLong(value);
      }
      if (template instanceof Number) {
        return Double.parseDouble(value);
      }
      if (template instanceof Boolean) {
        if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
          throw new IllegalArgumentException();
        }
        return Boolean.parseBoolean(value);
      }
      if (template instanceof JsonObject) {
        return new JsonObject(value);
      }
      if (template instanceof JsonArray) {
        return value.startsWith("[") ? new JsonArray(value) : new JsonArray(java.util.Arrays.stream(value.split(","))
            .map(String::trim).filter(s -> !s.isEmpty()).toList());
      }
      return raw;
    } catch (RuntimeException e) {
      String type = template == null ? "string" : template.getClass().getSimpleName().replace("Json", "JSON ").toLowerCase();
      throw new ConfigException(setting + " (env " + var + "): cannot read '" + raw + "' as " + type);
    }
  }
}
