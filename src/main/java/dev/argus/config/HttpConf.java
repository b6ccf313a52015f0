package dev.argus.config;

/** Section {@code http}: the HTTP server. */
public record HttpConf(String host, int port, long maxBodyBytes, String webroot, int maxQueryChars, long sendTimeoutMs) {

  public static HttpConf from(Settings s) {
    return new HttpConf(
        s.nonBlank("host", "0.0.0.0"),
        s.intIn("port", 8080, 0, 65535),
        s.longIn("maxBodyBytes", 10L * 1024 * 1024, 1024, 1L << 31),
        s.nonBlank("webroot", "webroot"),
        s.intIn("maxQueryChars", 2000, 16, 100_000),
        s.longIn("sendTimeoutMs", 15_000, 100, 600_000));
  }
}
