package dev.argus.app;

import dev.argus.agent.AgentModule;
import dev.argus.agent.api.ChatRoutes;
import dev.argus.agent.api.OpenAiCompatRoutes;
import dev.argus.agent.api.RunRoutes;
import dev.argus.config.ArgusConfig;
import dev.argus.config.DataFolderLock;
import dev.argus.documents.DocumentRoutes;
import dev.argus.documents.DocumentsVerticle;
import dev.argus.eval.EvalRoutes;
import dev.argus.graph.GraphRoutes;
import dev.argus.graph.GraphStores;
import dev.argus.graph.GraphVerticle;
import dev.argus.http.Bus;
import dev.argus.http.HttpVerticle;
import dev.argus.http.Readiness;
import dev.argus.http.RouteGroup;
import dev.argus.ingest.IngestRoutes;
import dev.argus.ingest.IngestVerticle;
import dev.argus.ingest.JobStore;
import dev.argus.llm.LlmStatusVerticle;
import dev.argus.records.RecordRoutes;
import dev.argus.records.RecordStores;
import dev.argus.records.RecordValidator;
import dev.argus.records.RecordsVerticle;
import dev.argus.retrieval.RetrievalVerticle;
import dev.argus.retrieval.SearchRoutes;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;

import java.util.List;
import java.util.logging.Logger;

/**
 * Wires Argus together: opens the shared services, deploys one verticle per capability (each given its own
 * configuration section record and the services it uses), then the HTTP verticle with the route groups every
 * capability contributes. HTTP comes last so that nothing is served before the bus consumers are ready.
 */
public final class MainVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(MainVerticle.class.getName());

  private final ArgusConfig conf;
  private final Readiness readiness = new Readiness();
  private DataFolderLock dataLock;
  private Services services;
  private HttpVerticle http;

  public MainVerticle(ArgusConfig conf) {
    this.conf = conf;
  }

  @Override
  public Future<?> start() {
    return vertx.executeBlocking(() -> DataFolderLock.acquire(conf.data().dir(), "argus serve"), false)
        .onSuccess(l -> dataLock = l)
        .compose(l -> ServiceFactory.open(vertx, conf))
        .onSuccess(s -> services = s)
        .compose(this::deployCapabilities)
        .compose(v -> {
          http = new HttpVerticle(conf.http(), conf.data().dir().resolve("uploads"), routes(), readiness);
          return vertx.deployVerticle(http);
        })
        .onSuccess(id -> LOG.info("Argus is listening on http://" + conf.http().host() + ":" + http.actualPort()))
        .onFailure(err -> releaseDataLock());
  }

  private void releaseDataLock() {
    if (dataLock != null) {
      dataLock.close();
      dataLock = null;
    }
  }

  /**
   * The capability verticles (LLM status, documents, ingestion, retrieval, agent, records), deployed before HTTP.
   * Records come last: a sample world loaded at start then finds ingestion (case documents) and the graph deployed.
   */
  private Future<Void> deployCapabilities(Services s) {
    return vertx.deployVerticle(new LlmStatusVerticle(s.llm()))
        .compose(v -> vertx.deployVerticle(new DocumentsVerticle(s.knowledge(), s.embedder())))
        .compose(v -> {
          IngestVerticle ingest = new IngestVerticle(conf.ingest(), s.embedder(), s.knowledge(),
              JobStore.of(s.database()));
          readiness.await("sample knowledge base", ingest.startupLoading());
          return vertx.deployVerticle(ingest);
        })
        .compose(v -> vertx.deployVerticle(new RetrievalVerticle(conf.retrieval(), conf.http().maxQueryChars(),
            s.knowledge(), s.embedder())))
        .compose(id -> AgentModule.deploy(vertx, conf.agent(), s.database(), s.llm()))
        .compose(v -> vertx.deployVerticle(new GraphVerticle(conf.graph(), GraphStores.create(s.database()),
            s.fingerprinter()), GraphVerticle.deploymentOptions()))
        .compose(v -> {
          RecordsVerticle records = new RecordsVerticle(conf.records(), RecordStores.create(s.database()),
              new RecordValidator(s.fingerprinter(), conf.records().maxLineChars()));
          readiness.await("sample world", records.startupLoading());
          return vertx.deployVerticle(records);
        })
        .mapEmpty();
  }

  /** The route groups every capability contributes, in mount order. */
  private List<RouteGroup> routes() {
    Bus bus = new Bus(vertx, conf.http().sendTimeoutMs());
    return List.of(
        new IngestRoutes(vertx, bus, conf.ingest(), conf.http().sendTimeoutMs()),
        new DocumentRoutes(bus),
        new SearchRoutes(bus, conf.retrieval(), conf.http().maxQueryChars()),
        new ChatRoutes(vertx, bus, conf.agent()),
        new RunRoutes(vertx, bus, conf.agent()),
        new OpenAiCompatRoutes(vertx, bus, conf.agent()),
        new EvalRoutes(),
        new RecordRoutes(vertx, bus, conf.records()),
        new GraphRoutes(bus));
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
    return (services == null ? Future.succeededFuture() : services.close()).eventually(() -> {
      releaseDataLock();
      return Future.succeededFuture();
    });
  }
}
