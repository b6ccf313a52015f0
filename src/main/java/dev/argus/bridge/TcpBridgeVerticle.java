package dev.argus.bridge;

import dev.argus.config.BridgeConf;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.NetServerOptions;
import io.vertx.ext.bridge.BridgeOptions;
import io.vertx.ext.eventbus.bridge.tcp.TcpEventBusBridge;
import io.vertx.ext.eventbus.bridge.tcp.impl.protocol.FrameHelper;

import java.lang.reflect.Method;
import java.util.logging.Logger;

/**
 * The TCP event-bus bridge (vertx-tcp-eventbus-bridge: frames of a 4-byte big-endian length and a JSON envelope
 * {@code {type, address, replyAddress?, headers?, body}}) on {@code bridge.tcpPort} of the HTTP host; the same
 * addresses and checks as the SockJS bridge ({@link BridgeGuard}). Off unless {@code bridge.tcpEnabled}. The listening
 * server is ours: every connection's frames pass {@link TcpFrameChecker} (length at most {@code bridge.maxMessageBytes},
 * a JSON object with a known {@code type}) before the library's parser sees them.
 */
public final class TcpBridgeVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(TcpBridgeVerticle.class.getName());

  private final BridgeConf conf;
  private final String host;
  private final BridgeGuard guard;
  private TcpEventBusBridge bridge;
  private NetServer server;

  public TcpBridgeVerticle(BridgeConf conf, String host, BridgeGuard guard) {
    this.conf = conf;
    this.host = host;
    this.guard = guard;
  }

  @Override
  public Future<?> start() {
    BridgeOptions options = BridgeAddresses.permit(new BridgeOptions());
    NetServerOptions serverOptions = new NetServerOptions().setHost(host).setPort(conf.tcpPort()).setIdleTimeout(0);
    bridge = TcpEventBusBridge.create(vertx, options, serverOptions,
        event -> guard.handle(event, event.socket().remoteAddress(),
            frame -> FrameHelper.writeFrame(frame, event.socket())));
    Handler<NetSocket> connections;
    try {
      connections = libraryConnectionHandler(bridge);
    } catch (ReflectiveOperationException e) {
      return Future.failedFuture(new IllegalStateException("the TCP bridge library changed: " + e, e));
    }
    server = vertx.createNetServer(serverOptions)
        .connectHandler(so -> connections.handle(new CheckedSocket(so, conf.maxMessageBytes())));
    return server.listen(conf.tcpPort(), host)
        .onSuccess(b -> LOG.info("TCP event-bus bridge listening on " + host + ":" + conf.tcpPort()));
  }

  /**
   * The library's per-connection set-up ({@code TcpEventBusBridgeImpl.handler(NetSocket)}, private in 5.0.8), so that
   * the connections come from our server, wrapped in {@link CheckedSocket} (its frame checks; the library has no
   * hook before its own framing). TcpBridgeTest fails loudly if a library upgrade moves it.
   */
  private static Handler<NetSocket> libraryConnectionHandler(TcpEventBusBridge bridge)
      throws ReflectiveOperationException {
    Method handler = bridge.getClass().getDeclaredMethod("handler", NetSocket.class);
    handler.setAccessible(true);
    return so -> {
      try {
        handler.invoke(bridge, so);
      } catch (ReflectiveOperationException e) {
        LOG.severe("TCP bridge connection set-up failed: " + e);
        so.close();
      }
    };
  }

  @Override
  public Future<?> stop() {
    return server == null ? Future.succeededFuture() : server.close();
  }
}
