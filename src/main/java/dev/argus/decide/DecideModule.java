package dev.argus.decide;

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
 * record tools, and the graph tools once they exist) behind the agent's {@link ToolExecutor}, deploys the assessors,
 * then the decide verticle.
 */
public final class DecideModule {

  private DecideModule() {
  }

  public static Future<Void> deploy(Vertx vertx, DecideConf conf, AgentConf agent, Database db, LlmClient llm,
                                    String llmModel) {
    return deploy(vertx, conf, agent, DecisionStores.create(db), llm, llmModel, null);
  }

  /** {@code extraTools}: tools added to the default list (tests use it to stand in for a graph tool). */
  public static Future<Void> deploy(Vertx vertx, DecideConf conf, AgentConf agent, DecisionStore store, LlmClient llm,
                                    String llmModel, List<Tool> extraTools) {
    return vertx.executeBlocking(() -> DecisionConfigs.load(conf.scoringDir(), conf.policiesDir()), false)
        .compose(configs -> {
          List<Tool> tools = new ArrayList<>(RecordTools.all(vertx, conf.toolTimeoutMs()));
          if (extraTools != null) {
            tools.addAll(extraTools);
          }
          ToolExecutor executor = new ToolExecutor(vertx, tools, new ToolExecutor.Settings(conf.toolTimeoutMs(),
              agent.toolRetries(), agent.toolBackoffMs(), agent.breakerMaxFailures(), agent.breakerResetMs()));
          Set<String> names = tools.stream().map(Tool::name).collect(Collectors.toSet());
          DecisionLlm decisionLlm = new DecisionLlm(llm, llmModel, conf.useLlm());
          ShadowRunner shadow = new ShadowRunner(configs, store);
          return vertx.deployVerticle(new AssessorVerticle())
              .compose(x -> vertx.deployVerticle(new DecideVerticle(conf, store,
                  v -> new DecisionEngine(v, conf, configs, store, new ActStep(executor, names), decisionLlm),
                  v -> new Reviews(v, conf, configs, store), shadow)));
        }).mapEmpty();
  }
}
