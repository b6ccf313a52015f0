package dev.argus.agent;

import dev.argus.agent.compose.ExtractiveComposer;
import dev.argus.agent.filters.MetadataCatalog;
import dev.argus.agent.profile.Profile;
import dev.argus.agent.profile.Profiles;
import dev.argus.agent.phases.ActPhase;
import dev.argus.agent.phases.ObservePhase;
import dev.argus.agent.phases.PhaseVerticle;
import dev.argus.agent.phases.PlanPhase;
import dev.argus.agent.phases.ReflectPhase;
import dev.argus.agent.phases.ThinkPhase;
import dev.argus.agent.tools.KnowledgeTools;
import dev.argus.agent.tools.GraphTools;
import dev.argus.agent.tools.RecordTools;
import dev.argus.agent.tools.Tool;
import dev.argus.agent.tools.ToolExecutor;
import dev.argus.agent.tools.ToolRegistry;
import dev.argus.config.AgentConf;
import dev.argus.config.ClusterConf;
import dev.argus.llm.LlmClient;
import dev.argus.llm.NoLlmClient;
import dev.argus.runs.RunLeases;
import dev.argus.runs.RunStore;
import dev.argus.runs.RunStores;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.HashMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Wires the agent runtime: profiles, tools, the five phase verticles (each on its own address) and the coordinator
 * verticle, deployed in that order (phases first, so that resumed runs find them).
 */
public final class AgentModule {

  private AgentModule() {
  }

  /**
   * Deploys the agent verticles with the services they use; {@code llm} may be null (no LLM: rule-based phases),
   * The knowledge base is reached over the bus.
   */
  public static Future<Void> deploy(Vertx vertx, AgentConf conf, Database database, LlmClient llm) {
    return deploy(vertx, conf, database, llm, null, null);
  }

  /**
   * As above; in cluster mode ({@code cluster.enabled}) the coordinator holds a lease on every run it drives as node
   * {@code nodeId} and takes over the runs of dead nodes (see {@link RunOwnership}).
   */
  public static Future<Void> deploy(Vertx vertx, AgentConf conf, Database database, LlmClient llm,
                                    ClusterConf cluster, String nodeId) {
    Profiles profiles;
    try {
      profiles = Profiles.load(conf);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    LlmClient model = llm == null ? new NoLlmClient() : llm;
    RunStore runs = RunStores.create(database);
    List<Tool> tools = new ArrayList<>(KnowledgeTools.all(vertx, conf.toolTimeoutMs()));
    tools.addAll(RecordTools.all(vertx, conf.toolTimeoutMs()));
    tools.addAll(GraphTools.all(vertx, conf.toolTimeoutMs()));
    RunLeases leases = cluster != null && cluster.enabled() ? new RunLeases(database) : null;
    return deploy(vertx, conf, profiles, model, runs, tools,
        v -> new RunCoordinator(v, runs, profiles, conf, leases == null ? null
            : new RunOwnership(v, leases, cluster, nodeId)));
  }

  /** Deploys with explicit parts (tests pass their own tool list to exercise timeouts, retries and breakers). */
  public static Future<Void> deploy(Vertx vertx, AgentConf conf, Profiles profiles, LlmClient llm, RunStore runs,
                                    List<Tool> tools) {
    return deploy(vertx, conf, profiles, llm, runs, tools, v -> new RunCoordinator(v, runs, profiles, conf));
  }

  private static Future<Void> deploy(Vertx vertx, AgentConf conf, Profiles profiles, LlmClient llm, RunStore runs,
                                     List<Tool> tools, Function<Vertx, RunCoordinator> coordinator) {
    ToolExecutor executor = new ToolExecutor(vertx, tools, new ToolExecutor.Settings(conf.toolTimeoutMs(),
        conf.toolRetries(), conf.toolBackoffMs(), conf.breakerMaxFailures(), conf.breakerResetMs()));
    // one registry per profile, built at start (profiles are fixed), read-only afterwards
    Map<String, ToolRegistry> registries = new HashMap<>();
    for (Profile p : profiles.all()) {
      registries.put(p.name(), new ToolRegistry(tools, p.tools()));
    }
    Map<String, ToolRegistry> frozen = Map.copyOf(registries);
    Function<Profile, ToolRegistry> lookup = p -> frozen.get(p.name());
    ExtractiveComposer composer = new ExtractiveComposer();
    MetadataCatalog catalog = new MetadataCatalog(vertx, conf.toolTimeoutMs());
    return vertx.deployVerticle(new PhaseVerticle(new ThinkPhase(llm, catalog::fields), profiles))
        .compose(x -> vertx.deployVerticle(new PhaseVerticle(new PlanPhase(llm, lookup), profiles)))
        .compose(x -> vertx.deployVerticle(new PhaseVerticle(new ActPhase(executor, lookup), profiles)))
        .compose(x -> vertx.deployVerticle(new PhaseVerticle(new ObservePhase(llm, composer), profiles)))
        .compose(x -> vertx.deployVerticle(new PhaseVerticle(new ReflectPhase(llm), profiles)))
        .compose(x -> vertx.deployVerticle(new CoordinatorVerticle(conf, coordinator)))
        .mapEmpty();
  }
}
