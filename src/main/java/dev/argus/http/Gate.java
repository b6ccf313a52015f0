package dev.argus.http;

import dev.argus.common.ApiException;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;

import java.util.Optional;

/**
 * Who may do what: the hook through which access control plugs into the HTTP layer (and the event-bus bridge)
 * without this package knowing how keys work. {@link #identify} turns a request's credentials into a
 * {@link Caller} (failing with a 401 {@link ApiException} for a bad one), {@link #admit} decides whether that
 * caller may use a permission now (403 {@code forbidden}, 429 {@link RateLimited}), and {@link #completed} hears
 * about every answered request that needed a permission (for the audit log).
 */
public interface Gate {

  /** The caller behind an HTTP request's {@code Authorization: Bearer} or {@code X-API-Key} header (or none). */
  Future<Caller> identify(HttpServerRequest req);

  /** The caller behind a credential carried elsewhere, e.g. a bridge message's {@code authorization} header. */
  Future<Caller> identify(String authorization, boolean loopback);

  /** Empty when {@code caller} may use {@code needed} now (and, for rate limits, counts the use). */
  Optional<ApiException> admit(Caller caller, Permission needed);

  /** An answered request: {@code status} is the response's status code. */
  default void completed(Caller caller, Permission needed, HttpServerRequest req, int status) {
  }

  /** No access control: everyone is {@link Caller#LOCAL} (tools and tests that serve no one else). */
  Gate OPEN = new Gate() {
    @Override
    public Future<Caller> identify(HttpServerRequest req) {
      return Future.succeededFuture(Caller.LOCAL);
    }

    @Override
    public Future<Caller> identify(String authorization, boolean loopback) {
      return Future.succeededFuture(Caller.LOCAL);
    }

    @Override
    public Optional<ApiException> admit(Caller caller, Permission needed) {
      return Optional.empty();
    }
  };
}
