package dev.argus.cluster;

import dev.argus.agent.tools.BusTool;
import dev.argus.config.ClusterConf;
import dev.argus.testing.BlockedThreadGuard;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Two clustered nodes (Hazelcast, TCP member list on loopback) in one JVM, each with a consumer on the same address:
 * a plain request is spread over both (round-robin), a tool call made during a run ({@link BusTool}, delivered with
 * {@code InRun}) is answered by its own node every time.
 */
@ExtendWith(BlockedThreadGuard.class)
class InRunLocalityTest {

  private static final String ADDRESS = "argus.test.inrun.where";

  @Test
  @Timeout(120)
  void toolCallsStayOnTheirNodeWhilePlainRequestsSpread() {
    List<String> members = List.of("127.0.0.1:5791", "127.0.0.1:5792");
    Vertx a = await(node(5791, members));
    Vertx b = await(node(5792, members));
    try {
      for (Map.Entry<String, Vertx> e : Map.of("a", a, "b", b).entrySet()) {
        await(e.getValue().eventBus().<JsonObject>consumer(ADDRESS, m -> m.reply(new JsonObject().put("node", e.getKey())))
            .completion());
      }
      waitUntilBothAnswer(a);

      BusTool tool = new BusTool(a, new BusTool.Spec("where", "which node answers", new JsonObject(), ADDRESS,
          p -> p, (req, reply) -> reply, r -> r), 5_000);
      Map<String, Integer> byTool = new HashMap<>();
      for (int i = 0; i < 20; i++) {
        byTool.merge(await(tool.execute(new JsonObject())).getString("node"), 1, Integer::sum);
      }
      assertEquals(Map.of("a", 20), byTool, "a run's tool calls are answered on the run's node");
    } finally {
      await(Future.join(a.close(), b.close()));
    }
  }

  /** Plain requests from node a reach both consumers once the cluster has both registrations. */
  private static void waitUntilBothAnswer(Vertx a) {
    long deadline = System.currentTimeMillis() + 60_000;
    Map<String, Integer> seen = new HashMap<>();
    while (seen.size() < 2) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("plain requests never reached both nodes: " + seen);
      }
      seen.merge(await(a.eventBus().<JsonObject>request(ADDRESS, new JsonObject())).body().getString("node"), 1,
          Integer::sum);
    }
  }

  private static Future<Vertx> node(int port, List<String> members) {
    ClusterConf conf = new ClusterConf(true, "argus-inrun-test", "127.0.0.1", port, 0, members, false, 10_000, 3_000,
        2_000, 3);
    return ClusterNode.start(Vertx.builder().with(ClusterNode.clusterOptions(new VertxOptions(), conf)), conf);
  }
}
