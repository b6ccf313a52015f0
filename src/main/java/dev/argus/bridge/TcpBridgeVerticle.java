package dev.argus.bridge;

import dev.argus.config.BridgeConf;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.net.NetServerOptions;
import io.vertx.ext.bridge.BridgeOptions;
import io.vertx.ext.eventbus.bridge.tcp.TcpEventBusBridge;
import io.vertx.ext.eventbus.bridge.tcp.impl.protocol.FrameHelper;

import java.util.logging.Logger;

/**
 * The TCP event-bus bridge (vertx-tcp-eventbus-bridge: frames of a 4-byte big-endian length and a JSON envelope
 * {@code {type, address, replyAddress?, headers?, body}}) on {@code bridge.tcpPort} of the HTTP host; the same
 * addresses and checks as the SockJS bridge ({@link BridgeGuard}). Off unless {@code bridge.tcpEnabled}.
 */
public final class TcpBridgeVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(TcpBridgeVerticle.class.getName());

  private final BridgeConf conf;
  private final String host;
  private final BridgeGuard guard;
  private TcpEventBusBridge bridge;

  public TcpBridgeVerticle(BridgeConf conf, String host, BridgeGuard guard) {
    this.conf = conf;
    this.host = host;
    this.guard = guard;
  }

  @Override
  public Future<?> start() {
    BridgeOptions options = BridgeAddresses.permit(new BridgeOptions());
    bridge = TcpEventBusBridge.create(vertx, options, new NetServerOptions().setHost(host).setPort(conf.tcpPort())
            .setIdleTimeout(0),
        event -> guard.handle(event, event.socket().remoteAddress(),
            frame -> FrameHelper.writeFrame(frame, event.socket())));
    return bridge.listen(conf.tcpPort(), host)
        .onSuccess(b -> LOG.info("TCP event-bus bridge listening on " + host + ":" + conf.tcpPort()));
  }

  @Override
  public Future<?> stop() {
    return bridge == null ? Future.succeededFuture() : bridge.close();
  }
}
