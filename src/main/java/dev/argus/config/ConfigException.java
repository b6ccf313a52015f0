package dev.argus.config;

/** A setting is missing or has a wrong value; the message names the setting and its environment variable. */
public final class ConfigException extends RuntimeException {
  public ConfigException(String message) {
    super(message);
  }
}
