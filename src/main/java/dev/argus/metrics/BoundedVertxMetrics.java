package dev.argus.metrics;

import io.vertx.core.Vertx;
import io.vertx.core.datagram.DatagramSocketOptions;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.spi.metrics.ClientMetrics;
import io.vertx.core.spi.metrics.DatagramSocketMetrics;
import io.vertx.core.spi.metrics.EventBusMetrics;
import io.vertx.core.spi.metrics.HttpClientMetrics;
import io.vertx.core.spi.metrics.HttpServerMetrics;
import io.vertx.core.spi.metrics.PoolMetrics;
import io.vertx.core.spi.metrics.TCPMetrics;
import io.vertx.core.spi.metrics.VertxMetrics;

/** Vert.x metrics that delegate everything, with HTTP server metrics limited to {@link KnownMethods}. */
final class BoundedVertxMetrics implements VertxMetrics {

  private final VertxMetrics delegate;

  BoundedVertxMetrics(VertxMetrics delegate) {
    this.delegate = delegate;
  }

  @Override
  public HttpServerMetrics<?, ?, ?> createHttpServerMetrics(HttpServerOptions options, SocketAddress localAddress) {
    HttpServerMetrics<?, ?, ?> metrics = delegate.createHttpServerMetrics(options, localAddress);
    return metrics == null ? null : new BoundedHttpServerMetrics(metrics);
  }

  @Override
  public EventBusMetrics createEventBusMetrics() {
    return delegate.createEventBusMetrics();
  }

  @Override
  public ClientMetrics<?, ?, ?> createClientMetrics(SocketAddress remoteAddress, String type, String namespace) {
    return delegate.createClientMetrics(remoteAddress, type, namespace);
  }

  @Override
  public HttpClientMetrics<?, ?, ?> createHttpClientMetrics(HttpClientOptions options) {
    return delegate.createHttpClientMetrics(options);
  }

  @Override
  public TCPMetrics<?> createNetServerMetrics(NetServerOptions options, SocketAddress localAddress) {
    return delegate.createNetServerMetrics(options, localAddress);
  }

  @Override
  public TCPMetrics<?> createNetClientMetrics(NetClientOptions options) {
    return delegate.createNetClientMetrics(options);
  }

  @Override
  public DatagramSocketMetrics createDatagramSocketMetrics(DatagramSocketOptions options) {
    return delegate.createDatagramSocketMetrics(options);
  }

  @Override
  public PoolMetrics<?, ?> createPoolMetrics(String poolType, String poolName, int maxPoolSize) {
    return delegate.createPoolMetrics(poolType, poolName, maxPoolSize);
  }

  @Override
  public void vertxCreated(Vertx vertx) {
    delegate.vertxCreated(vertx);
  }

  @Override
  public boolean isMetricsEnabled() {
    return delegate.isMetricsEnabled();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
