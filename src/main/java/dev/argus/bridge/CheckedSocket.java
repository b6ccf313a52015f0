package dev.argus.bridge;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.SSLOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.eventbus.bridge.tcp.impl.protocol.FrameHelper;

import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import java.security.cert.Certificate;
import java.util.List;

/**
 * A TCP bridge connection as the library sees it: the real socket, except that the data handler the library installs
 * (its frame parser) is fed through a {@link TcpFrameChecker}. Everything else is the socket's own.
 */
final class CheckedSocket implements NetSocket {

  private final NetSocket socket;
  private final int maxFrameBytes;

  CheckedSocket(NetSocket socket, int maxFrameBytes) {
    this.socket = socket;
    this.maxFrameBytes = maxFrameBytes;
  }

  @Override
  public NetSocket handler(Handler<Buffer> handler) {
    socket.handler(handler == null ? null : new TcpFrameChecker(maxFrameBytes, handler,
        frame -> FrameHelper.writeFrame(frame, socket), socket::close));
    return this;
  }

  @Override
  public NetSocket exceptionHandler(Handler<Throwable> handler) {
    socket.exceptionHandler(handler);
    return this;
  }

  @Override
  public NetSocket pause() {
    socket.pause();
    return this;
  }

  @Override
  public NetSocket resume() {
    socket.resume();
    return this;
  }

  @Override
  public NetSocket fetch(long amount) {
    socket.fetch(amount);
    return this;
  }

  @Override
  public NetSocket endHandler(Handler<Void> handler) {
    socket.endHandler(handler);
    return this;
  }

  @Override
  public NetSocket setWriteQueueMaxSize(int maxSize) {
    socket.setWriteQueueMaxSize(maxSize);
    return this;
  }

  @Override
  public NetSocket drainHandler(Handler<Void> handler) {
    socket.drainHandler(handler);
    return this;
  }

  @Override
  public boolean writeQueueFull() {
    return socket.writeQueueFull();
  }

  @Override
  public Future<Void> write(Buffer data) {
    return socket.write(data);
  }

  @Override
  public String writeHandlerID() {
    return socket.writeHandlerID();
  }

  @Override
  public Future<Void> write(String str) {
    return socket.write(str);
  }

  @Override
  public Future<Void> write(String str, String enc) {
    return socket.write(str, enc);
  }

  @Override
  public Future<Void> sendFile(String filename, long offset, long length) {
    return socket.sendFile(filename, offset, length);
  }

  @Override
  public SocketAddress remoteAddress() {
    return socket.remoteAddress();
  }

  @Override
  public SocketAddress remoteAddress(boolean real) {
    return socket.remoteAddress(real);
  }

  @Override
  public SocketAddress localAddress() {
    return socket.localAddress();
  }

  @Override
  public SocketAddress localAddress(boolean real) {
    return socket.localAddress(real);
  }

  @Override
  public Future<Void> end() {
    return socket.end();
  }

  @Override
  public Future<Void> close() {
    return socket.close();
  }

  @Override
  public NetSocket closeHandler(Handler<Void> handler) {
    socket.closeHandler(handler);
    return this;
  }

  @Override
  public NetSocket shutdownHandler(Handler<Void> handler) {
    socket.shutdownHandler(handler);
    return this;
  }

  @Override
  public Future<Void> upgradeToSsl(SSLOptions sslOptions, String serverName, Buffer upgrade) {
    return socket.upgradeToSsl(sslOptions, serverName, upgrade);
  }

  @Override
  public boolean isSsl() {
    return socket.isSsl();
  }

  @Override
  public SSLSession sslSession() {
    return socket.sslSession();
  }

  @Override
  public List<Certificate> peerCertificates() throws SSLPeerUnverifiedException {
    return socket.peerCertificates();
  }

  @Override
  public String indicatedServerName() {
    return socket.indicatedServerName();
  }

  @Override
  public String applicationLayerProtocol() {
    return socket.applicationLayerProtocol();
  }
}
