package dev.argus.agent;

import dev.argus.agent.tools.ChunkNeighboursTool;
import dev.argus.agent.tools.GetDocumentTool;
import dev.argus.agent.tools.KnowledgeSearchTool;
import dev.argus.agent.tools.Tool;
import dev.argus.config.ArgusConfig;
import dev.argus.http.HttpVerticle;
import dev.argus.llm.LlmClient;
import dev.argus.runs.RunStore;
import dev.argus.runs.RunStores;
import dev.argus.store.Database;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.List;

/**
 * Starts the agent runtime for a test: real SQLite run store in the data folder, the real phase and coordinator
 * verticles, the real HTTP layer on a free port, with retrieval answered by {@link InterimRetrieval} (until the real
 * retrieval and store land on main).
 */
final class AgentHarness {

  final Vertx vertx;
  final ArgusConfig conf;
  final Database db;
  final RunStore runs;
  final HttpVerticle http;

  private AgentHarness(Vertx vertx, ArgusConfig conf, Database db, RunStore runs, HttpVerticle http) {
    this.vertx = vertx;
    this.conf = conf;
    this.db = db;
    this.runs = runs;
    this.http = http;
  }

  static Future<AgentHarness> start(Vertx vertx, ArgusConfig conf, LlmClient llm, InterimRetrieval retrieval) {
    List<Tool> tools = List.of(new KnowledgeSearchTool(vertx, conf.agent().toolTimeoutMs()),
        new GetDocumentTool(vertx, null, conf.agent().toolTimeoutMs()),
        new ChunkNeighboursTool(vertx, null, conf.agent().toolTimeoutMs()));
    return retrieval.register(vertx).compose(v -> Database.sqlite(vertx, conf.data().sqliteFile())).compose(db -> {
      RunStore runs = RunStores.create(db);
      return AgentModule.deploy(vertx, conf.agent(), Profiles.load(conf.agent()), llm, runs, null, tools)
          .compose(v -> {
            HttpVerticle http = new HttpVerticle(conf);
            return vertx.deployVerticle(http, new DeploymentOptions().setConfig(conf.section("http")))
                .map(id -> new AgentHarness(vertx, conf, db, runs, http));
          });
    });
  }

  int port() {
    return http.actualPort();
  }
}
