package dev.argus.config;

import java.util.List;
import java.util.Locale;

/**
 * Section {@code http}: the HTTP server and its edge rules. Argus binds the loopback interface by default; to serve
 * other machines, bind another interface and name the host names clients use in {@code allowedHosts} (the
 * {@code Host} header of every request must be one of them, which defeats DNS rebinding). {@code allowedOrigins}
 * lists other web origins whose pages may send state-changing requests (the page's own origin always may).
 * The three timeouts bound what a slow or silent client can hold: a connection with no traffic at all
 * ({@code idleTimeoutMs}), a request's head ({@code headerTimeoutMs}, from the connection or the previous response)
 * and its body ({@code bodyTimeoutMs}, from the head).
 */
public record HttpConf(String host, int port, long maxBodyBytes, String webroot, int maxQueryChars, long sendTimeoutMs,
                       List<String> allowedHosts, List<String> allowedOrigins, long idleTimeoutMs, long headerTimeoutMs,
                       long bodyTimeoutMs) {

  public static final List<String> LOOPBACK_NAMES = List.of("localhost", "127.0.0.1", "[::1]");

  public static HttpConf from(Settings s) {
    List<String> hosts = s.strings("allowedHosts", LOOPBACK_NAMES).stream().map(h -> h.strip().toLowerCase(Locale.ROOT))
        .filter(h -> !h.isEmpty()).toList();
    if (hosts.isEmpty()) {
      throw s.error("allowedHosts", "must name at least one host name (or \"*\" for any)");
    }
    List<String> origins = s.strings("allowedOrigins", List.of()).stream().map(o -> o.strip().toLowerCase(Locale.ROOT))
        .filter(o -> !o.isEmpty()).toList();
    for (String origin : origins) {
      if (!origin.matches("https?://[^/\\s]+")) {
        throw s.error("allowedOrigins", "'" + origin + "' is not an origin such as https://app.example.com");
      }
    }
    return new HttpConf(
        s.nonBlank("host", "127.0.0.1"),
        s.intIn("port", 8080, 0, 65535),
        s.longIn("maxBodyBytes", 10L * 1024 * 1024, 1024, 1L << 31),
        s.nonBlank("webroot", "webroot"),
        s.intIn("maxQueryChars", 2000, 16, 100_000),
        s.longIn("sendTimeoutMs", 15_000, 100, 600_000),
        hosts, origins,
        s.longIn("idleTimeoutMs", 120_000, 1_000, 3_600_000),
        s.longIn("headerTimeoutMs", 10_000, 100, 600_000),
        s.longIn("bodyTimeoutMs", 60_000, 100, 3_600_000));
  }

  /** True when {@code host} is a loopback address, so that only this machine can connect. */
  public boolean loopbackOnly() {
    return host.equals("localhost") || host.startsWith("127.") || host.equals("::1") || host.equals("[::1]");
  }
}
