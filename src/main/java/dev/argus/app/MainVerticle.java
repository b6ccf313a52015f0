package dev.argus.app;

import dev.argus.access.AccessRoutes;
import dev.argus.access.AccessVerticle;
import dev.argus.access.DomainNamespaceGuard;
import dev.argus.access.AuditStore;
import dev.argus.access.KeyStore;
import dev.argus.agent.AgentModule;
import dev.argus.bridge.BridgeGuard;
import dev.argus.bridge.SockJsBridge;
import dev.argus.bridge.TcpBridgeVerticle;
import dev.argus.decide.DecideModule;
import dev.argus.decide.api.DecisionRoutes;
import dev.argus.agent.api.ChatRoutes;
import dev.argus.adversarial.AdversarialRoutes;
import dev.argus.adversarial.AdversarialVerticle;
import dev.argus.adversarial.SqlAdversarialStore;
import dev.argus.backtest.BacktestRoutes;
import dev.argus.backtest.BacktestVerticle;
import dev.argus.agent.api.OpenAiCompatRoutes;
import dev.argus.agent.api.RunRoutes;
import dev.argus.citations.CitationRoutes;
import dev.argus.citations.CitationsVerticle;
import dev.argus.config.ArgusConfig;
import dev.argus.config.DataFolderLock;
import dev.argus.documents.DocumentRoutes;
import dev.argus.documents.DocumentsVerticle;
import dev.argus.eval.EvalRoutes;
import dev.argus.eval.online.EvalApiRoutes;
import dev.argus.eval.online.EvaluationVerticle;
import dev.argus.eval.store.EvalStores;
import dev.argus.feedback.FeedbackRoutes;
import dev.argus.feedback.FeedbackStores;
import dev.argus.feedback.FeedbackVerticle;
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
import dev.argus.observe.ObserveRoutes;
import dev.argus.observe.ObserveVerticle;
import dev.argus.observe.TraceStore;
import dev.argus.observe.Tracing;
import dev.argus.observe.VerticleProbes;
import dev.argus.records.RecordRoutes;
import dev.argus.records.RecordStores;
import dev.argus.records.RecordValidator;
import dev.argus.records.RecordsVerticle;
import dev.argus.retrieval.RetrievalVerticle;
import dev.argus.retrieval.SearchRoutes;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
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
  private Tracing tracing;
  private ObserveVerticle observe;
  private AccessVerticle access;

  public MainVerticle(ArgusConfig conf) {
    this(conf, null);
  }

  /** {@code tracing}: the OpenTelemetry SDK the Vert.x instance traces with, or null (one is made at start). */
  public MainVerticle(ArgusConfig conf, Tracing tracing) {
    this.conf = conf;
    this.tracing = tracing;
  }

  @Override
  public Future<?> start() {
    return vertx.executeBlocking(() -> DataFolderLock.acquire(conf.data().dir(), "argus serve"), false)
        .onSuccess(l -> dataLock = l)
        .compose(l -> ServiceFactory.open(vertx, conf))
        .onSuccess(s -> services = s)
        .compose(this::deployCapabilities)
        .compose(v -> conf.bridge().tcpEnabled()
            ? vertx.deployVerticle(new TcpBridgeVerticle(conf.bridge(), conf.http().host(), bridgeGuard())).mapEmpty()
            : Future.succeededFuture())
        .compose(v -> {
          http = new HttpVerticle(conf.http(), conf.data().dir().resolve("uploads"), routes(), readiness,
              access.gate());
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
    // the OpenTelemetry SDK loads many classes: built off the event loop
    return (tracing != null ? Future.succeededFuture(tracing)
        : vertx.executeBlocking(() -> Tracing.create(conf.observe()), false))
        .compose(t -> {
          tracing = t;
          observe = new ObserveVerticle(conf.observe(), TraceStore.create(s.database()), tracing);
          // observe first: it taps the run events from the first run on
          return vertx.deployVerticle(observe);
        })
        .compose(v -> {
          access = new AccessVerticle(conf.auth(), conf.auth().keysRequired(conf.http()), KeyStore.of(s.database()),
              AuditStore.of(s.database()), System.out);
          return vertx.deployVerticle(access);
        })
        .compose(v -> vertx.deployVerticle(new LlmStatusVerticle(s.llm())))
        .compose(v -> vertx.deployVerticle(new DocumentsVerticle(s.knowledge(), s.embedder())))
        .compose(v -> {
          IngestVerticle ingest = new IngestVerticle(conf.ingest(), s.embedder(), s.knowledge(),
              JobStore.of(s.database()), !conf.cluster().enabled());
          readiness.await("sample knowledge base", ingest.startupLoading());
          return vertx.deployVerticle(ingest);
        })
        .compose(v -> vertx.deployVerticle(new RetrievalVerticle(conf.retrieval(), conf.http().maxQueryChars(),
            s.knowledge(), s.embedder())))
        .compose(v -> vertx.deployVerticle(new EvaluationVerticle(conf.eval(), EvalStores.create(s.database()), s.llm()),
            new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER)))
        .compose(id -> AgentModule.deploy(vertx, conf.agent(), s.database(), s.llm(), conf.cluster(),
            conf.cluster().nodeId()))
        .compose(v -> vertx.deployVerticle(new GraphVerticle(conf.graph(), GraphStores.create(s.database(), conf.graph().cacheNodes()),
            s.fingerprinter()), GraphVerticle.deploymentOptions()))
        .compose(id -> vertx.deployVerticle(new CitationsVerticle(conf.citations())))
        .compose(v -> {
          RecordsVerticle records = new RecordsVerticle(conf.records(), RecordStores.create(s.database()),
              new RecordValidator(s.fingerprinter(), conf.records().maxLineChars()));
          readiness.await("sample world", records.startupLoading());
          return vertx.deployVerticle(records);
        })
        // feedback before decide: calibration answers and decisions are indexed from the first one
        .compose(v -> vertx.deployVerticle(new FeedbackVerticle(conf.feedback(), FeedbackStores.create(s.database()))))
        .compose(v -> DecideModule.deploy(vertx, conf.decide(), conf.agent(), s.database(), s.llm(), conf.llm().model()))
        .compose(v -> vertx.deployVerticle(new BacktestVerticle(conf.backtest(), conf.decide().scoringDir(),
            new dev.argus.backtest.BacktestStore(s.database()))))
        .compose(v -> vertx.deployVerticle(new AdversarialVerticle(conf.adversarial(),
            new SqlAdversarialStore(s.database()))))
        // planner statistics after bulk loads, whatever the server's autovacuum does
        .compose(v -> conf.store().analyzeCheckMs() > 0
            ? vertx.deployVerticle(new dev.argus.store.StatisticsVerticle(s.database(), conf.store().analyzeCheckMs()))
            : Future.succeededFuture())
        .mapEmpty();
  }

  private BridgeGuard bridgeGuard() {
    return new BridgeGuard(access.gate(), conf.bridge().maxMessageBytes(), conf.records().caseNamespace());
  }

  /** The route groups every capability contributes, in mount order (the SockJS bridge last, when enabled). */
  private List<RouteGroup> routes() {
    List<RouteGroup> groups = new java.util.ArrayList<>(capabilityRoutes());
    if (conf.bridge().sockjsEnabled()) {
      groups.add(new SockJsBridge(vertx, conf.bridge(), bridgeGuard()));
    }
    return groups;
  }

  private List<RouteGroup> capabilityRoutes() {
    Bus bus = new Bus(vertx, conf.http().sendTimeoutMs());
    return List.of(
        new DomainNamespaceGuard(conf.records().caseNamespace()), // before the routes of records, graph and decisions
        new IngestRoutes(vertx, bus, conf.ingest(), conf.http().sendTimeoutMs()),
        new DocumentRoutes(bus),
        new SearchRoutes(bus, conf.retrieval(), conf.http().maxQueryChars()),
        new ChatRoutes(vertx, bus, conf.agent()),
        new RunRoutes(vertx, bus, conf.agent()),
        new OpenAiCompatRoutes(vertx, bus, conf.agent()),
        new EvalRoutes(),
        new EvalApiRoutes(bus),
        new RecordRoutes(vertx, bus, conf.records()),
        new GraphRoutes(bus),
        new CitationRoutes(bus, conf.citations()),
        new ObserveRoutes(bus, readiness, new VerticleProbes(vertx, VerticleProbes.defaults(), 2_000)),
        new DecisionRoutes(vertx, bus, conf.decide()),
        new FeedbackRoutes(bus, conf.feedback().maxQueueLimit()),
        new BacktestRoutes(vertx, bus),
        new AdversarialRoutes(vertx, bus),
        new AccessRoutes(bus));
  }

  /** The port the HTTP server bound, once started. */
  public int httpPort() {
    return http == null ? -1 : http.actualPort();
  }

  /** The observability verticle (tests run its retention task at once). */
  public ObserveVerticle observe() {
    return observe;
  }

  /** The HTTP verticle (its permission table), once started. */
  public HttpVerticle http() {
    return http;
  }

  /** Access control (the key ring, the gate), once started. */
  public AccessVerticle access() {
    return access;
  }

  public Services services() {
    return services;
  }

  @Override
  public Future<?> stop() {
    // Child verticles are undeployed first by Vert.x; then the shared services close.
    Future<?> traced = tracing == null ? Future.succeededFuture()
        : vertx.executeBlocking(() -> {
          tracing.close();
          return null;
        }, false);
    return traced.eventually(() -> services == null ? Future.succeededFuture() : services.close()).eventually(() -> {
      releaseDataLock();
      return Future.succeededFuture();
    });
  }
}
