package dev.argus.decide;

import dev.argus.agent.tools.GraphTools;
import dev.argus.agent.tools.RecordTools;
import dev.argus.agent.tools.Tool;
import dev.argus.agent.tools.ToolExecutor;
import dev.argus.config.AgentConf;
import dev.argus.config.DecideConf;
import dev.argus.decide.model.DecisionConfigs;
import dev.argus.decide.phases.ActStep;
import dev.argus.decide.phases.DecisionLlm;
import dev.argus.decide.store.DecisionStore;
import dev.argus.decide.store.DecisionStores;
import dev.argus.llm.LlmClient;
import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Wires the decision engine: loads the scoring models and policies (on a worker), builds the tools it may call (the
 * record tools and the graph tools) behind the agent's {@link ToolExecutor}, deploys the assessors,
 * then the decide verticle.
 */
public final class DecideModule {

  /**
   * The decisions' tool breakers as metrics and health name them, {@code decision-tool:<name>}: apart from the
   * agent's ({@code tool:<name>}), which run the same record and graph tools with breakers of their own.
   */
  public static final String TOOL_BREAKERS = "decision-tool:";

  private DecideModule() {
  }

  public static Future<Void> deploy(Vertx vertx, DecideConf conf, AgentConf agent, Database db, LlmClient llm,
                                    String llmModel) {
    return deploy(vertx, conf, agent, DecisionStores.create(db), llm, llmModel, null);
  }

  /** {@code extraTools}: tools added to the default list (tests use it to stand in for a graph tool). */
  public static Future<Void> deploy(Vertx vertx, DecideConf conf, AgentConf agent, DecisionStore store, LlmClient llm,
                                    String llmModel, List<Tool> extraTools) {
    // the files, the tools' schemas and the breakers are prepared on a worker (class loading and schema compilation
    // take seconds on a loaded machine); only the deployments run on the event loop
    record Parts(DecisionConfigs configs, ToolExecutor executor, Set<String> names, DecisionLlm llm) {
    }
    return vertx.executeBlocking(() -> {
      DecisionConfigs configs = DecisionConfigs.load(conf.scoringDir(), conf.policiesDir());
      List<Tool> tools = new ArrayList<>(RecordTools.all(vertx, conf.toolTimeoutMs()));
      tools.addAll(GraphTools.all(vertx, conf.toolTimeoutMs()));
      tools.add(new dev.argus.decide.tools.TradingPatternsTool(vertx, conf.toolTimeoutMs()));
      tools.add(dev.argus.decide.tools.IdentifierSharingTool.create(vertx, conf.toolTimeoutMs()));
      tools.add(dev.argus.decide.tools.IdentifierSharingTool.forBuyers(vertx, conf.toolTimeoutMs()));
      if (extraTools != null) {
        tools.addAll(extraTools);
      }
      ToolExecutor executor = new ToolExecutor(vertx, TOOL_BREAKERS, tools, new ToolExecutor.Settings(
          conf.toolTimeoutMs(), conf.toolRetries(), agent.toolBackoffMs(), agent.breakerMaxFailures(),
          agent.breakerResetMs()));
      Set<String> names = tools.stream().map(Tool::name).collect(Collectors.toSet());
      return new Parts(configs, executor, names, new DecisionLlm(llm, llmModel, conf.useLlm()));
    }, false)
        .compose(p -> {
          ShadowRunner shadow = new ShadowRunner(p.configs(), store);
          return vertx.deployVerticle(new AssessorVerticle())
              .compose(x -> vertx.deployVerticle(new DecideVerticle(conf, store,
                  v -> new DecisionEngine(v, conf, p.configs(), store, new ActStep(p.executor(), p.names()), p.llm()),
                  v -> new Reviews(v, conf, p.configs(), store), shadow)));
        }).mapEmpty();
  }
}
