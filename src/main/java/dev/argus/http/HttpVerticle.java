package dev.argus.http;

import dev.argus.config.HttpConf;
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
 * The thin HTTP layer: body limits, the routes it is given (each capability hands its {@link RouteGroup}, which
 * validates and talks to the bus, to {@code MainVerticle}), health, the static web UI, and one JSON failure
 * handler. It knows no capability.
 */
public final class HttpVerticle extends VerticleBase {

  private final HttpConf conf;
  private final Path uploadsDir;
  private final List<RouteGroup> routes;
  private HttpServer server;

  /**
   * @param uploadsDir where multipart uploads are spooled while a request is handled
   * @param routes     the capabilities' routes, in mount order
   */
  public HttpVerticle(HttpConf conf, Path uploadsDir, List<RouteGroup> routes) {
    this.conf = conf;
    this.uploadsDir = uploadsDir;
    this.routes = List.copyOf(routes);
  }

  @Override
  public Future<?> start() {
    Bus bus = new Bus(vertx, conf.sendTimeoutMs());
    Router router = Router.router(vertx);
    router.route("/api/*").handler(BodyHandler.create(uploadsDir.toString()).setBodyLimit(conf.maxBodyBytes())
        .setDeleteUploadedFilesOnEnd(true).setHandleFileUploads(true));
    router.route("/v1/*").handler(BodyHandler.create(false).setBodyLimit(conf.maxBodyBytes()));
    Metrics.mount(vertx, router);
    new HealthRoutes(bus).mount(router);
    for (RouteGroup group : routes) {
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

  /** The port actually bound (useful when configured with port 0). */
  public int actualPort() {
    return server == null ? -1 : server.actualPort();
  }
}
