package dev.argus.config;

/**
 * Section {@code observe}: run traces, their OpenTelemetry export, and run retention.
 *
 * <ul>
 *   <li>{@code traces} (default true): build one trace per run and store it with the run.</li>
 *   <li>{@code maxSpansPerRun} (default 500): spans kept per trace; later tool calls are counted, not traced.</li>
 *   <li>{@code otlpEndpoint} (default empty: off): an OTLP/HTTP traces endpoint, e.g.
 *       {@code http://collector:4318/v1/traces}; {@code otlpTimeoutMs} bounds each export.</li>
 *   <li>{@code serviceName} (default {@code argus}): the {@code service.name} resource of exported spans.</li>
 *   <li>{@code runRetentionHours} (default 720, 30 days; 0 keeps runs forever): ended runs, their events and traces
 *       older than this are purged by a background task every {@code purgeIntervalMs} (default one hour).</li>
 * </ul>
 */
public record ObserveConf(boolean traces, int maxSpansPerRun, String otlpEndpoint, long otlpTimeoutMs,
                          String serviceName, long runRetentionHours, long purgeIntervalMs) {

  public static ObserveConf from(Settings s) {
    String endpoint = s.string("otlpEndpoint", "").strip();
    if (!endpoint.isEmpty() && !endpoint.matches("https?://[^\\s]+")) {
      throw s.error("otlpEndpoint", "must be an http(s) URL or empty, got '" + endpoint + "'");
    }
    String service = s.nonBlank("serviceName", "argus");
    if (!service.matches("[A-Za-z0-9_.-]{1,64}")) {
      throw s.error("serviceName", "must be 1 to 64 letters, digits, '_', '.' or '-'");
    }
    return new ObserveConf(
        s.bool("traces", true),
        s.intIn("maxSpansPerRun", 500, 10, 100_000),
        endpoint,
        s.longIn("otlpTimeoutMs", 10_000, 100, 600_000),
        service,
        s.longIn("runRetentionHours", 720, 0, 87_600),
        s.longIn("purgeIntervalMs", 3_600_000, 1_000, 86_400_000));
  }

  public boolean otlpEnabled() {
    return !otlpEndpoint.isEmpty();
  }

  public long runRetentionMs() {
    return runRetentionHours * 3_600_000L;
  }
}
