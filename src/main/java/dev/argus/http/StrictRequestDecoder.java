package dev.argus.http;

import io.netty.handler.codec.http.HttpMessage;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;

/**
 * Vert.x's HTTP/1.x request decoder, except that a request with both {@code Content-Length} and
 * {@code Transfer-Encoding} is rejected, as RFC 9112 section 6.3 advises (Netty's default removes the
 * {@code Content-Length} and reads the body as chunked, the ambiguity request smuggling relies on). The rejected
 * request reaches the server's invalid-request handler and its connection is closed after the answer.
 */
final class StrictRequestDecoder extends VertxHttpRequestDecoder {

  StrictRequestDecoder(HttpServerOptions options) {
    super(options);
  }

  @Override
  protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
    throw new IllegalArgumentException("a request may not carry both Content-Length and Transfer-Encoding");
  }
}
