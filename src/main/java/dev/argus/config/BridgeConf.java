package dev.argus.config;

/**
 * Section {@code bridge}: the event-bus bridge for upstream systems (see README "Event-bus bridge").
 * {@code sockjsEnabled} serves the SockJS bridge at {@code /eventbus} on the HTTP port (same Host and origin rules).
 * {@code tcpEnabled} (off by default: it is a second open port) serves the TCP bridge (4-byte length + JSON frames)
 * on {@code tcpPort} of {@code http.host}. Every message is authenticated by its {@code authorization} header and
 * counted against its key's rate limit; {@code replyTimeoutMs} bounds a bridged request;
 * {@code maxMessageBytes} bounds a frame.
 */
public record BridgeConf(boolean sockjsEnabled, boolean tcpEnabled, int tcpPort, long replyTimeoutMs,
                         int maxMessageBytes, int maxHandlersPerSocket) {

  public static BridgeConf from(Settings s) {
    return new BridgeConf(
        s.bool("sockjsEnabled", true),
        s.bool("tcpEnabled", false),
        s.intIn("tcpPort", 7000, 0, 65535),
        s.longIn("replyTimeoutMs", 60_000, 100, 600_000),
        s.intIn("maxMessageBytes", 256 * 1024, 1024, 16 * 1024 * 1024),
        s.intIn("maxHandlersPerSocket", 100, 1, 10_000));
  }
}
