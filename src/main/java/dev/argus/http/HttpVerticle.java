package dev.argus.http;

import dev.argus.agent.api.ChatRoutes;
import dev.argus.agent.api.RunRoutes;
import dev.argus.agent.api.OpenAiCompatRoutes;
import dev.argus.config.ArgusConfig;
import dev.argus.config.HttpConf;
import dev.argus.eval.EvalRoutes;
import dev.argus.retrieval.SearchRoutes;
import dev.argus.metrics.Metrics;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.FileSystemAccess;
import io.vertx.ext.web.handler.StaticHandler;

import java.nio.file.Path;
import java.util.List;

/**
 * The thin HTTP layer: body limits, the routes of every capability (each a {@link RouteGroup} that validates
 * and talks to the bus), the static web UI, and one JSON failure handler.
 */
public final class HttpVerticle extends VerticleBase {

  private final ArgusConfig config;
  private final HttpConf conf;
  private final Path uploadsDir;
  private HttpServer server;

  public HttpVerticle(ArgusConfig config) {
    this.config = config;
    this.conf = config.http();
    this.uploadsDir = config.data().dir().resolve("uploads");
  }

  @Override
  public Future<?> start() {
    Bus bus = new Bus(vertx, conf.sendTimeoutMs());
    Router router = Router.router(vertx);
    router.route("/api/*").handler(BodyHandler.create(uploadsDir.toString()).setBodyLimit(conf.maxBodyBytes())
        .setDeleteUploadedFilesOnEnd(true).setHandleFileUploads(true));
    router.route("/v1/*").handler(BodyHandler.create(false).setBodyLimit(conf.maxBodyBytes()));
    Metrics.mount(vertx, router);
    for (RouteGroup group : routeGroups(bus)) {
      group.mount(router);
    }
    router.route("/api/*").last().handler(ctx -> ctx.fail(404));
    router.route("/*").handler(StaticHandler.create(FileSystemAccess.ROOT, Path.of(conf.webroot()).toAbsolutePath()
        .toString()).setCachingEnabled(false).setIndexPage("index.html"));
    router.route().failureHandler(new ErrorHandler());
    return vertx.createHttpServer(new HttpServerOptions().setHost(conf.host()).setPort(conf.port())
            .setCompressionSupported(true))
        .requestHandler(router)
        .listen()
        .onSuccess(s -> server = s);
  }

  /** The routes of every capability, in mount order. */
  private List<RouteGroup> routeGroups(Bus bus) {
    return List.of(new HealthRoutes(bus),
        new dev.argus.ingest.IngestRoutes(vertx, bus, config),
        new dev.argus.documents.DocumentRoutes(bus),
        new SearchRoutes(bus, config),
        new ChatRoutes(vertx, bus, config.agent()),
        new RunRoutes(vertx, bus, config.agent()),
        new OpenAiCompatRoutes(vertx, bus, config.agent()),
        new EvalRoutes());
  }

  /** The port actually bound (useful when configured with port 0). */
  public int actualPort() {
    return server == null ? -1 : server.actualPort();
  }
}
