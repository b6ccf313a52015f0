package dev.argus.bridge;

import dev.argus.config.BridgeConf;
import dev.argus.http.Permission;
import dev.argus.http.RouteGroup;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.sockjs.SockJSBridgeOptions;
import io.vertx.ext.web.handler.sockjs.SockJSHandler;
import io.vertx.ext.web.handler.sockjs.SockJSHandlerOptions;
import io.vertx.ext.web.handler.sockjs.Transport;

/**
 * The SockJS event-bus bridge at {@code /eventbus} (vertx-web), for browsers and for upstream systems using
 * {@code @vertx/eventbus-bridge-client.js}. The HTTP transport itself needs no key (permission {@code public}: the
 * Host and cross-origin rules of every request still apply); a transport request is checked by
 * {@link SockJsTransportGuard} (4xx in the API's error shape), every message by {@link BridgeGuard}.
 */
public final class SockJsBridge implements RouteGroup {

  public static final String PATH = "/eventbus";

  private final Vertx vertx;
  private final BridgeConf conf;
  private final BridgeGuard guard;

  public SockJsBridge(Vertx vertx, BridgeConf conf, BridgeGuard guard) {
    this.vertx = vertx;
    this.conf = conf;
    this.guard = guard;
  }

  @Override
  public void mount(Router router) {
    SockJSBridgeOptions options = BridgeAddresses.permit(new SockJSBridgeOptions())
        .setReplyTimeout(conf.replyTimeoutMs()).setMaxHandlersPerSocket(conf.maxHandlersPerSocket())
        .setMaxAddressLength(200);
    Router bridge = SockJSHandler.create(vertx, new SockJSHandlerOptions().setRegisterWriteHandler(false)
            .addDisabledTransport(Transport.JSON_P.name()).addDisabledTransport(Transport.HTML_FILE.name()))
        .bridge(options, event -> guard.handle(event, event.socket().remoteAddress(),
            frame -> event.socket().write(Buffer.buffer(frame.encode()))));
    Route guarded = Permission.require(router.route(PATH + "*"), Permission.PUBLIC);
    new SockJsTransportGuard(vertx, PATH, conf.maxMessageBytes()).handlers().forEach(guarded::handler);
    Permission.require(router.route(PATH + "/*"), Permission.PUBLIC).subRouter(bridge);
  }

  @Override
  public Permission permission(HttpMethod method) {
    return Permission.PUBLIC;
  }
}
