package dev.argus.config;

import java.util.List;

/**
 * Section {@code cluster}: several Argus nodes joined by the Vert.x clustered event bus (Hazelcast) over one shared
 * PostgreSQL (see README "Cluster mode"). Off by default: the embedded default stays a single process.
 *
 * <ul>
 *   <li>{@code enabled}: join a cluster at start (requires {@code store.type=postgres}).
 *   <li>{@code name}: the Hazelcast cluster name; nodes with another name never join.
 *   <li>{@code host}: this node's address, used for the Hazelcast member port and the event-bus port, and announced
 *       to the other nodes (so it must be reachable from them; loopback for a single-machine cluster).
 *   <li>{@code port}: the Hazelcast member port; {@code busPort}: the event-bus TCP port (0: any free port).
 *   <li>{@code members}: the TCP member list, {@code host:port} of the nodes to contact at start (any subset of
 *       the cluster will do; this node may be in it). {@code multicast}: discover members by multicast instead (off
 *       by default: the member list is explicit and multicast is not routed on most networks).
 *   <li>Run ownership: a node owns the runs it drives through a lease in PostgreSQL, renewed every {@code renewMs},
 *       valid {@code leaseMs}; every {@code takeoverScanMs} each node looks for expired leases of running runs and
 *       takes them over (resume from the last checkpoint), so a run of a dead node resumes within
 *       {@code leaseMs + takeoverScanMs}. A run taken over more than {@code maxTakeovers} times is marked failed.
 * </ul>
 */
public record ClusterConf(boolean enabled, String name, String host, int port, int busPort, List<String> members,
                          boolean multicast, long leaseMs, long renewMs, long takeoverScanMs, int maxTakeovers) {

  public static ClusterConf from(Settings s) {
    boolean enabled = s.bool("enabled", false);
    String name = s.nonBlank("name", "argus");
    if (!name.matches("[A-Za-z0-9._-]{1,64}")) {
      throw s.error("name", "must match [A-Za-z0-9._-]{1,64}, got '" + name + "'");
    }
    String host = s.nonBlank("host", "127.0.0.1");
    int port = s.intIn("port", 5701, 1, 65535);
    int busPort = s.intIn("busPort", 0, 0, 65535);
    List<String> members = s.strings("members", List.of("127.0.0.1:5701"));
    for (String m : members) {
      if (!m.matches("[A-Za-z0-9.:\\[\\]_-]+:\\d{1,5}")) {
        throw s.error("members", "each member must be host:port, got '" + m + "'");
      }
    }
    boolean multicast = s.bool("multicast", false);
    if (enabled && !multicast && members.isEmpty()) {
      throw s.error("members", "must list at least one host:port when multicast is off");
    }
    long leaseMs = s.longIn("leaseMs", 10_000, 1_000, 600_000);
    long renewMs = s.longIn("renewMs", 3_000, 100, 300_000);
    if (renewMs * 2 > leaseMs) {
      throw s.error("renewMs", "must be at most half of cluster.leaseMs (" + leaseMs + "), got " + renewMs);
    }
    long scanMs = s.longIn("takeoverScanMs", 2_000, 100, 300_000);
    int maxTakeovers = s.intIn("maxTakeovers", 3, 0, 100);
    return new ClusterConf(enabled, name, host, port, busPort, List.copyOf(members), multicast, leaseMs, renewMs,
        scanMs, maxTakeovers);
  }

  /** Cluster mode needs the shared PostgreSQL store: checked across sections at start. */
  void checkStore(StoreConf store) {
    if (enabled && !store.isPostgres()) {
      throw new ConfigException("cluster.enabled (env " + ConfigLoader.envName("cluster", "enabled")
          + "): cluster mode requires store.type=postgres (env ARGUS_STORE_TYPE=postgres): the nodes share runs,"
          + " knowledge and leases through one PostgreSQL; the embedded SQLite store is one process's file");
    }
  }

  /** This node's name in the run leases: its member address (unique among live members; a restarted node takes back its runs). */
  public String nodeId() {
    return host + ":" + port;
  }

  /** The longest a running run of a dead node waits before another node takes it over. */
  public long takeoverBoundMs() {
    return leaseMs + takeoverScanMs;
  }
}
