package dev.argus.http;

import dev.argus.common.ApiException;
import dev.argus.config.HttpConf;
import dev.argus.metrics.Metrics;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.CorsHandler;
import io.vertx.ext.web.handler.FileSystemAccess;
import io.vertx.ext.web.handler.StaticHandler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * The thin HTTP layer: the edge rules ({@link EdgeHandler}: methods, request targets, Host and cross-origin checks,
 * security headers; {@link ConnectionGuard}: strict framing, header and idle timeouts; {@link BodyTimeout}), body
 * limits, the routes it is given (each capability hands its {@link RouteGroup}, which validates and talks to the
 * bus, to {@code MainVerticle}), health and readiness, the static web UI, and one JSON failure handler for every
 * error, unmatched paths and wrong methods included. Every {@code GET} route also answers {@code HEAD}. It knows
 * no capability.
 */
public final class HttpVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(HttpVerticle.class.getName());
  /** The prefix of paths the static web UI does not serve. */
  private static final Pattern PAGES = Pattern.compile("/(?!api/|api$|v1/|v1$|metrics$).*");

  private final HttpConf conf;
  private final Path uploadsDir;
  private final List<RouteGroup> routes;
  private final Readiness readiness;
  private final Gate gate;
  private io.vertx.core.buffer.Buffer openApi;
  private PermissionTable permissions;
  private Router router;
  private HttpServer server;
  private ConnectionGuard guard;

  /** Without start-up tasks to wait for (ready as soon as the store answers). */
  public HttpVerticle(HttpConf conf, Path uploadsDir, List<RouteGroup> routes) {
    this(conf, uploadsDir, routes, new Readiness());
  }

  /**
   * @param uploadsDir where multipart uploads are spooled while a request is handled (emptied at start)
   * @param routes     the capabilities' routes, in mount order
   * @param readiness  the start-up tasks {@code /api/health/ready} waits for
   */
  public HttpVerticle(HttpConf conf, Path uploadsDir, List<RouteGroup> routes, Readiness readiness) {
    this(conf, uploadsDir, routes, readiness, Gate.OPEN);
  }

  /**
   * @param gate access control: who the caller of each request is and whether it may use the route's
   *             {@link Permission} ({@link Gate#OPEN}: everyone may do everything)
   */
  public HttpVerticle(HttpConf conf, Path uploadsDir, List<RouteGroup> routes, Readiness readiness, Gate gate) {
    this.conf = conf;
    this.uploadsDir = uploadsDir;
    this.routes = List.copyOf(routes);
    this.readiness = readiness;
    this.gate = gate;
  }

  @Override
  public Future<?> start() {
    return vertx.executeBlocking(() -> {
      openApi = OpenApi.load();
      return prepareFiles();
    }, false).compose(this::listen);
  }

  private Future<HttpServer> listen(StaticHandler pages) {
    HttpServerOptions options = new HttpServerOptions().setHost(conf.host()).setPort(conf.port())
        .setCompressionSupported(true)
        .setHttp2ClearTextEnabled(false) // HTTP/1.1 only: every connection gets the strict decoder at once
        .setIdleTimeout((int) conf.idleTimeoutMs()).setIdleTimeoutUnit(TimeUnit.MILLISECONDS);
    guard = new ConnectionGuard(vertx, options, conf.headerTimeoutMs());
    Router router = router(pages);
    this.router = router;
    AllowedMethods allowed = new AllowedMethods(router, PAGES, Set.of(HttpMethod.GET, HttpMethod.HEAD));
    return vertx.createHttpServer(options)
        .connectionHandler(guard::opened)
        .invalidRequestHandler(HttpVerticle::invalidRequest)
        .requestHandler(new EdgeHandler(new AccessPolicy(conf), guard, allowed, router))
        .listen()
        .onSuccess(s -> server = s);
  }

  private Router router(StaticHandler pages) {
    Bus bus = new Bus(vertx, conf.sendTimeoutMs());
    Router router = Router.router(vertx);
    router.route().handler(new BodyTimeout(vertx, conf.bodyTimeoutMs(), guard));
    if (!conf.allowedOrigins().isEmpty()) {
      CorsHandler cors = cors();
      router.route().handler(ctx -> {
        String origin = ctx.request().getHeader("Origin");
        if (origin != null && conf.allowedOrigins().contains(origin.strip().toLowerCase(java.util.Locale.ROOT))) {
          cors.handle(ctx); // listed origins get CORS headers (and their preflights an answer)
        } else {
          ctx.next(); // the page's own origin and every other origin: no CORS headers, nothing refused here
        }
      });
    }
    permissions = new PermissionTable(PAGES);
    router.route().handler(new GateHandler(gate, permissions));
    router.route("/api/*").handler(new MultipartCheck());
    router.route("/api/*").handler(BodyHandler.create(uploadsDir.toString()).setBodyLimit(conf.maxBodyBytes())
        .setDeleteUploadedFilesOnEnd(true).setHandleFileUploads(true));
    router.route("/v1/*").handler(BodyHandler.create(false).setBodyLimit(conf.maxBodyBytes()));
    router.route().handler(BodyTimeout::bodyRead);
    Metrics.mount(vertx, router);
    int before = router.getRoutes().size();
    new HealthRoutes(bus, readiness).mount(router);
    OpenApi.mount(router, openApi);
    List<Route> health = router.getRoutes().subList(before, router.getRoutes().size());
    health.forEach(r -> Permission.require(r, Permission.PUBLIC));
    permissions.add(List.copyOf(health), null);
    for (RouteGroup group : routes) {
      before = router.getRoutes().size();
      group.mount(router);
      permissions.add(List.copyOf(router.getRoutes().subList(before, router.getRoutes().size())), group);
    }
    permissions.add(router.getRoutes().stream().filter(r -> "/metrics".equals(r.getPath())).toList(), null);
    router.getWithRegex(PAGES.pattern()).handler(pages);
    answerHead(router);
    ErrorHandler errors = new ErrorHandler(new AllowedMethods(router, PAGES, Set.of(HttpMethod.GET, HttpMethod.HEAD)));
    router.route().failureHandler(errors);
    for (int status : new int[] {400, 404, 405, 406, 413, 415, 500}) {
      router.errorHandler(status, errors);
    }
    return router;
  }

  /**
   * CORS for the origins of {@code http.allowedOrigins} (the same list that may send state-changing requests): their
   * pages may call the API with a key ({@code Authorization}, {@code X-API-Key}); other origins get no CORS headers.
   */
  private CorsHandler cors() {
    return CorsHandler.create().addOrigins(conf.allowedOrigins())
        .allowedMethods(Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.POST, HttpMethod.PUT, HttpMethod.DELETE))
        .allowedHeaders(Set.of("Authorization", "X-API-Key", "Content-Type", "Last-Event-ID"))
        .exposedHeaders(Set.of("Retry-After", "Location")).maxAgeSeconds(600);
  }

  /** The permission each route needs (once started). */
  public PermissionTable permissions() {
    return permissions;
  }

  /** The routes of the running server's router, in order (for the OpenAPI test that compares them with the document). */
  public List<Route> routes() {
    return router == null ? List.of() : List.copyOf(router.getRoutes());
  }

  /** Every route that answers {@code GET} answers {@code HEAD} too (Vert.x sends the headers without the body). */
  private static void answerHead(Router router) {
    for (Route route : router.getRoutes()) {
      if (route.methods() != null && route.methods().contains(HttpMethod.GET)
          && !route.methods().contains(HttpMethod.HEAD)) {
        route.method(HttpMethod.HEAD);
      }
    }
  }

  /** Blocking start-up file work: deletes upload files left by an earlier process, and locates the web pages. */
  private StaticHandler prepareFiles() throws IOException {
    if (Files.isDirectory(uploadsDir)) {
      int removed = 0;
      try (Stream<Path> files = Files.list(uploadsDir)) {
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          Files.deleteIfExists(f);
          removed++;
        }
      }
      if (removed > 0) {
        LOG.info("deleted " + removed + " upload file(s) left in " + uploadsDir + " by an earlier run");
      }
    }
    Path local = Path.of(conf.webroot());
    StaticHandler pages = Files.isDirectory(local)
        ? StaticHandler.create(FileSystemAccess.ROOT, local.toAbsolutePath().toString())
        : StaticHandler.create(FileSystemAccess.RELATIVE, conf.webroot()); // the pages shipped in the jar
    return pages.setCachingEnabled(false).setIndexPage("index.html");
  }

  /** A request the decoder rejected (malformed head, both framings, too long): answered, then the connection closes. */
  private static void invalidRequest(HttpServerRequest req) {
    Throwable cause = req.decoderResult().cause();
    ApiException error;
    if (cause instanceof TooLongHttpLineException) {
      error = new ApiException(414, "uri_too_long", "the request line is too long");
    } else if (cause instanceof TooLongHttpHeaderException) {
      error = new ApiException(431, "headers_too_large", "the request headers are too large");
    } else {
      error = ApiException.badRequest("malformed_request", "malformed HTTP request"
          + (cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage()));
    }
    SecurityHeaders.apply(req.response().headers());
    req.response().putHeader("Connection", "close");
    ErrorResponses.send(req, error);
  }

  /** The port actually bound (useful when configured with port 0). */
  public int actualPort() {
    return server == null ? -1 : server.actualPort();
  }
}
