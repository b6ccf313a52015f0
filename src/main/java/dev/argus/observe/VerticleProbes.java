package dev.argus.observe;

import dev.argus.bus.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Per-verticle health: each capability verticle is asked something harmless on one of its addresses (a read, or a
 * request it must refuse) with a short timeout. Any reply, even a refusal, proves the verticle is deployed and its
 * event loop answers ({@code up}); no handler means it is not deployed ({@code down}); silence past the timeout
 * means it is stuck or overloaded ({@code unresponsive}).
 */
public final class VerticleProbes {

  /** One probe: the verticle's name, the address asked and the body sent. */
  public record Probe(String verticle, String address, JsonObject body) {
  }

  /** The probes of the verticles every Argus process deploys. */
  public static List<Probe> defaults() {
    JsonObject none = new JsonObject();
    JsonObject missingRun = new JsonObject().put("runId", "health-probe");
    List<Probe> probes = new ArrayList<>(List.of(
        new Probe("llm-status", Addresses.LLM_STATUS, none),
        new Probe("documents", Addresses.KNOWLEDGE_STATS, none),
        new Probe("ingest", Addresses.INGEST_JOB_STATUS, new JsonObject().put("jobId", "health-probe")),
        new Probe("retrieval", Addresses.RETRIEVE_SEARCH, none),
        new Probe("agent-coordinator", Addresses.AGENT_RUN_GET, missingRun),
        new Probe("agent-think", Addresses.AGENT_THINK, none),
        new Probe("agent-plan", Addresses.AGENT_PLAN, none),
        new Probe("agent-act", Addresses.AGENT_ACT, none),
        new Probe("agent-observe", Addresses.AGENT_OBSERVE, none),
        new Probe("agent-reflect", Addresses.AGENT_REFLECT, none),
        new Probe("records", Addresses.RECORDS_GET, none),
        new Probe("observe", Addresses.OBSERVE_TRACE_GET, missingRun)));
    return probes;
  }

  private final Vertx vertx;
  private final List<Probe> probes;
  private final long timeoutMs;

  public VerticleProbes(Vertx vertx, List<Probe> probes, long timeoutMs) {
    this.vertx = vertx;
    this.probes = List.copyOf(probes);
    this.timeoutMs = timeoutMs;
  }

  /** {@code {ok, verticles: [{name, address, status: up|down|unresponsive, ms}]}}, probes in parallel. */
  public Future<JsonObject> probeAll() {
    List<Future<JsonObject>> all = probes.stream().map(this::probe).toList();
    return Future.join(all).transform(ar -> {
      JsonArray out = new JsonArray();
      boolean ok = true;
      for (Future<JsonObject> f : all) {
        out.add(f.result());
        ok &= "up".equals(f.result().getString("status"));
      }
      return Future.succeededFuture(new JsonObject().put("ok", ok).put("verticles", out));
    });
  }

  private Future<JsonObject> probe(Probe p) {
    long start = System.nanoTime();
    return vertx.eventBus().request(p.address(), p.body(), new DeliveryOptions().setSendTimeout(timeoutMs))
        .map(m -> "up")
        .recover(err -> Future.succeededFuture(err instanceof ReplyException re
            ? switch (re.failureType()) {
                case NO_HANDLERS -> "down";
                case TIMEOUT -> "unresponsive";
                default -> "up";
              }
            : "down"))
        .map(status -> new JsonObject().put("name", p.verticle()).put("address", p.address()).put("status", status)
            .put("ms", Math.round((System.nanoTime() - start) / 10_000.0) / 100.0));
  }
}
