package dev.argus.cluster;

import dev.argus.config.ClusterConf;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;

/**
 * Starts the Vert.x instance of one node: clustered over Hazelcast when {@code cluster.enabled}, else a plain local
 * instance. The event bus listens on {@code cluster.host:cluster.busPort} and announces that address to the others.
 */
public final class ClusterNode {

  private ClusterNode() {
  }

  /** The event-bus options of a clustered node (applied to {@code options} in place). */
  public static VertxOptions clusterOptions(VertxOptions options, ClusterConf conf) {
    options.getEventBusOptions().setHost(conf.host()).setPort(conf.busPort()).setClusterPublicHost(conf.host());
    return options;
  }

  /** {@code builder} carries the options, metrics and tracing; the cluster manager is added here when enabled. */
  public static Future<Vertx> start(VertxBuilder builder, ClusterConf conf) {
    if (!conf.enabled()) {
      return Future.succeededFuture(builder.build());
    }
    return builder.withClusterManager(HazelcastSetup.clusterManager(conf)).buildClustered();
  }
}
