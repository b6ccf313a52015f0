package dev.argus.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import dev.argus.config.ClusterConf;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The Hazelcast member one Argus node runs, from the {@code cluster} section: vertx-hazelcast's default
 * configuration (the maps the clustered event bus keeps its subscriptions in), then this node's interface and member
 * port, and discovery by an explicit TCP member list (multicast only when {@code cluster.multicast} says so).
 *
 * <p>Failure detection is tightened from Hazelcast's defaults (a heartbeat every second, a member without one for 5 s
 * is removed, instead of 60 s): until a dead node is removed, the event bus still counts its consumers and sends a
 * share of the requests into the void. Hazelcast's own shutdown hook is off, so that Vert.x leaves the cluster in
 * order when the process stops.
 */
public final class HazelcastSetup {

  static final int HEARTBEAT_SECONDS = 1;
  /** Kept here so that their levels are not collected with them. */
  private static final Logger HAZELCAST_LOG = Logger.getLogger("com.hazelcast");
  private static final Logger MEMBERSHIP_LOG = Logger.getLogger("com.hazelcast.internal.cluster");
  static final int MAX_NO_HEARTBEAT_SECONDS = 5;

  private HazelcastSetup() {
  }

  public static HazelcastClusterManager clusterManager(ClusterConf conf) {
    // Hazelcast talks a lot at INFO; membership changes (joins, departures) are worth keeping
    HAZELCAST_LOG.setLevel(Level.WARNING);
    MEMBERSHIP_LOG.setLevel(Level.INFO);
    return new HazelcastClusterManager(config(conf));
  }

  /** The IP address of {@code host} (a name such as a container's host name is resolved; called before start). */
  static String address(String host) {
    try {
      return java.net.InetAddress.getByName(host).getHostAddress();
    } catch (java.net.UnknownHostException e) {
      throw new dev.argus.config.ConfigException("cluster.host (env ARGUS_CLUSTER_HOST): cannot resolve '" + host
          + "': " + e.getMessage());
    }
  }

  static Config config(ClusterConf conf) {
    Config config = ConfigUtil.loadConfig();
    config.setClusterName(conf.name());
    config.setProperty("hazelcast.logging.type", "jdk");
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.setProperty("hazelcast.shutdownhook.enabled", "false");
    config.setProperty("hazelcast.wait.seconds.before.join", "0");
    config.setProperty("hazelcast.health.monitoring.level", "OFF");
    config.setProperty("hazelcast.heartbeat.interval.seconds", String.valueOf(HEARTBEAT_SECONDS));
    config.setProperty("hazelcast.max.no.heartbeat.seconds", String.valueOf(MAX_NO_HEARTBEAT_SECONDS));
    config.setProperty("hazelcast.local.localAddress", address(conf.host()));
    config.setProperty("hazelcast.socket.bind.any", "false");
    NetworkConfig network = config.getNetworkConfig();
    network.setPort(conf.port()).setPortAutoIncrement(false);
    network.setPublicAddress(conf.host() + ":" + conf.port());
    JoinConfig join = network.getJoin();
    join.getAutoDetectionConfig().setEnabled(false);
    join.getMulticastConfig().setEnabled(conf.multicast());
    join.getTcpIpConfig().setEnabled(!conf.multicast()).setMembers(conf.members());
    return config;
  }
}
