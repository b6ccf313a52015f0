package dev.argus.app;

import dev.argus.agent.AgentModule;
import dev.argus.config.ArgusConfig;
import dev.argus.http.HttpVerticle;
import dev.argus.ingest.IngestVerticle;
import dev.argus.documents.DocumentsVerticle;
import dev.argus.llm.LlmStatusVerticle;
import dev.argus.retrieval.RetrievalVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;

import java.util.logging.Logger;

/**
 * Opens the shared services, then deploys one verticle per capability, each with its own config section,
 * in order; HTTP comes last so that nothing is served before the bus consumers are ready.
 */
public final class MainVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(MainVerticle.class.getName());

  private final ArgusConfig conf;
  private Services services;
  private HttpVerticle http;

  public MainVerticle(ArgusConfig conf) {
    this.conf = conf;
  }

  @Override
  public Future<?> start() {
    return ServiceFactory.open(vertx, conf)
        .onSuccess(s -> services = s)
        .compose(s -> deployCapabilities(s))
        .compose(v -> {
          http = new HttpVerticle(conf);
          return vertx.deployVerticle(http, new DeploymentOptions().setConfig(conf.section("http")));
        })
        .onSuccess(id -> LOG.info("Argus is listening on http://localhost:" + http.actualPort()));
  }

  /** The capability verticles (ingestion, knowledge, retrieval, agent), deployed before HTTP. */
  private Future<Void> deployCapabilities(Services s) {
    return vertx.deployVerticle(new LlmStatusVerticle(s.llm()))
        .compose(v -> vertx.deployVerticle(new DocumentsVerticle(s), new DeploymentOptions().setConfig(conf.section("ingest"))))
        .compose(v -> vertx.deployVerticle(new IngestVerticle(s), new DeploymentOptions().setConfig(conf.section("ingest"))))
        .compose(v -> vertx.deployVerticle(new RetrievalVerticle(s),
            new DeploymentOptions().setConfig(conf.section("retrieval"))))
        .compose(id -> AgentModule.deploy(vertx, s, s.llm()))
        .mapEmpty();
  }

  /** The port the HTTP server bound, once started. */
  public int httpPort() {
    return http == null ? -1 : http.actualPort();
  }

  public Services services() {
    return services;
  }

  @Override
  public Future<?> stop() {
    // Child verticles are undeployed first by Vert.x; then the shared services close.
    return services == null ? Future.succeededFuture() : services.close();
  }
}
