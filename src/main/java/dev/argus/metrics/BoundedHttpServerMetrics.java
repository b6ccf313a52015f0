package dev.argus.metrics;

import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.spi.metrics.HttpServerMetrics;
import io.vertx.core.spi.observability.HttpRequest;
import io.vertx.core.spi.observability.HttpResponse;

/**
 * HTTP server metrics that only ever record requests with a {@link KnownMethods known method}: Vert.x reports every
 * request to the metrics before any handler runs, and the Micrometer implementation makes series per method name,
 * so without this filter each invented method name would add permanent series. For an unknown method the request
 * metric is {@code null} and every later call about it is ignored.
 *
 * <p>It also keeps the active-requests gauge true. The Micrometer implementation counts a request as active until
 * both its request end and its response end were reported, but Vert.x does not report the request end when the
 * response ended first and the request's end was never read (a static file answered while the request was paused;
 * a body that never completed and whose connection was closed), so the gauge grew by one each time. Here a response
 * end also ends a request whose end was not reported (with 0 further bytes read).
 */
final class BoundedHttpServerMetrics implements HttpServerMetrics<Object, Object, Object> {

  private final HttpServerMetrics<Object, Object, Object> delegate;

  @SuppressWarnings("unchecked")
  BoundedHttpServerMetrics(HttpServerMetrics<?, ?, ?> delegate) {
    this.delegate = (HttpServerMetrics<Object, Object, Object>) delegate;
  }

  /** One request's delegate metric and what was reported about it. */
  private static final class Tracked {
    final Object metric;
    final HttpRequest request;
    boolean requestEnded;
    boolean finished;

    Tracked(Object metric, HttpRequest request) {
      this.metric = metric;
      this.request = request;
    }
  }

  @Override
  public Object requestBegin(Object socketMetric, HttpRequest request) {
    return KnownMethods.isKnown(request.method()) ? new Tracked(delegate.requestBegin(socketMetric, request), request)
        : null;
  }

  @Override
  public void requestEnd(Object requestMetric, HttpRequest request, long bytesRead) {
    if (requestMetric instanceof Tracked t && !t.requestEnded) {
      t.requestEnded = true;
      delegate.requestEnd(t.metric, request, bytesRead);
    }
  }

  @Override
  public void requestReset(Object requestMetric) {
    if (requestMetric instanceof Tracked t && !t.finished) {
      t.finished = true;
      delegate.requestReset(t.metric);
    }
  }

  @Override
  public void responseBegin(Object requestMetric, HttpResponse response) {
    if (requestMetric instanceof Tracked t) {
      delegate.responseBegin(t.metric, response);
    }
  }

  @Override
  public Object responsePushed(Object socketMetric, HttpMethod method, String uri, HttpResponse response) {
    return null; // HTTP/2 push is not used
  }

  @Override
  public void responseEnd(Object requestMetric, HttpResponse response, long bytesWritten) {
    if (requestMetric instanceof Tracked t && !t.finished) {
      t.finished = true;
      delegate.responseEnd(t.metric, response, bytesWritten);
      if (!t.requestEnded) {
        t.requestEnded = true;
        delegate.requestEnd(t.metric, t.request, 0);
      }
    }
  }

  @Override
  public Object connected(Object socketMetric, Object requestMetric, ServerWebSocket serverWebSocket) {
    return requestMetric instanceof Tracked t ? delegate.connected(socketMetric, t.metric, serverWebSocket) : null;
  }

  @Override
  public void disconnected(Object webSocketMetric) {
    if (webSocketMetric != null) {
      delegate.disconnected(webSocketMetric);
    }
  }

  @Override
  public void requestRouted(Object requestMetric, String route) {
    if (requestMetric instanceof Tracked t) {
      delegate.requestRouted(t.metric, route);
    }
  }

  @Override
  public Object connected(SocketAddress remoteAddress, String remoteName) {
    return delegate.connected(remoteAddress, remoteName);
  }

  @Override
  public void disconnected(Object socketMetric, SocketAddress remoteAddress) {
    delegate.disconnected(socketMetric, remoteAddress);
  }

  @Override
  public void bytesRead(Object socketMetric, SocketAddress remoteAddress, long numberOfBytes) {
    delegate.bytesRead(socketMetric, remoteAddress, numberOfBytes);
  }

  @Override
  public void bytesWritten(Object socketMetric, SocketAddress remoteAddress, long numberOfBytes) {
    delegate.bytesWritten(socketMetric, remoteAddress, numberOfBytes);
  }

  @Override
  public void exceptionOccurred(Object socketMetric, SocketAddress remoteAddress, Throwable t) {
    delegate.exceptionOccurred(socketMetric, remoteAddress, t);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
