package dev.argus.access;

import dev.argus.common.ApiException;
import dev.argus.config.AuthConf;
import dev.argus.http.Caller;
import dev.argus.http.Gate;
import dev.argus.http.Permission;
import dev.argus.http.RateLimited;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.SocketAddress;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The access control behind the HTTP layer's {@link Gate} and the bridge: protected mode, keys, tokens, roles,
 * per-key rate limits and the audit of administrative and review requests.
 * <ul>
 *   <li>Protected mode: when keys are not required ({@code auth.required=false} and a loopback bind), a loopback
 *       client without credentials is {@link Caller#LOCAL}; otherwise a request without credentials is 401
 *       {@code unauthorized}. A presented credential is always checked (a bad one is 401).</li>
 *   <li>Credentials: {@code Authorization: Bearer <key or JWT>} or {@code X-API-Key: <key>}.</li>
 *   <li>Roles: {@link Role}; a permission the role lacks is 403 {@code forbidden}.</li>
 *   <li>Rate limits: the key's own or its role's ({@code auth.rateLimits}); 429 with {@code Retry-After}.</li>
 * </ul>
 */
public final class KeyGate implements Gate {

  private static final Logger LOG = Logger.getLogger(KeyGate.class.getName());
  private static final Set<HttpMethod> STATE_CHANGING = Set.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH,
      HttpMethod.DELETE);

  private final AuthConf conf;
  private final boolean keysRequired;
  private final KeyRing ring;
  private final RateLimiter limiter;
  private final JwtVerifier jwt;
  private final AuditStore audit;

  /** @param jwt null when tokens are not accepted */
  public KeyGate(AuthConf conf, boolean keysRequired, KeyRing ring, RateLimiter limiter, JwtVerifier jwt,
                 AuditStore audit) {
    this.conf = conf;
    this.keysRequired = keysRequired;
    this.ring = ring;
    this.limiter = limiter;
    this.jwt = jwt;
    this.audit = audit;
  }

  public boolean keysRequired() {
    return keysRequired;
  }

  @Override
  public Future<Caller> identify(HttpServerRequest req) {
    String credential = req.getHeader("Authorization");
    if (credential == null) {
      credential = req.getHeader("X-API-Key");
    }
    return identify(credential, isLoopback(req.remoteAddress()));
  }

  @Override
  public Future<Caller> identify(String authorization, boolean loopback) {
    if (authorization == null || authorization.isBlank()) {
      if (!keysRequired && loopback) {
        return Future.succeededFuture(Caller.LOCAL);
      }
      return Future.failedFuture(new ApiException(401, "unauthorized",
          "an API key is required: send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'"));
    }
    String credential = authorization.strip();
    if (credential.regionMatches(true, 0, "Bearer ", 0, 7)) {
      credential = credential.substring(7).strip();
    }
    if (KeySecrets.parse(credential).isPresent()) {
      Optional<ApiKey> key = ring.match(credential);
      if (key.isEmpty()) {
        return Future.failedFuture(new ApiException(401, "unauthorized",
            "the API key is not valid (unknown, revoked or mistyped)"));
      }
      ApiKey k = key.get();
      return Future.succeededFuture(caller(k.id(), k.role(), k.namespaces(), k.rateLimit()));
    }
    if (jwt != null && JwtVerifier.looksLikeJwt(credential)) {
      return jwt.verify(credential).map(g -> caller("jwt:" + g.subject(), g.role(), g.namespaces(), g.rateLimit()));
    }
    return Future.failedFuture(new ApiException(401, "unauthorized", "the credential is not an Argus API key"
        + (jwt == null ? "" : " or a valid token")));
  }

  private Caller caller(String id, Role role, java.util.List<String> namespaces, Integer ownRate) {
    int rate = ownRate != null ? ownRate : conf.rateLimits().getOrDefault(role.wireName(), 0);
    return new Caller(id, role.wireName(), role.permissions(), namespaces, rate);
  }

  @Override
  public Optional<ApiException> admit(Caller caller, Permission needed) {
    if (!caller.may(needed)) {
      return Optional.of(new ApiException(403, "forbidden", "role '" + caller.role() + "' may not do this (it needs"
          + " permission '" + needed.wireName() + "')"));
    }
    long wait = limiter.acquire(caller.id(), caller.ratePerMinute());
    if (wait > 0) {
      return Optional.of(new RateLimited(wait, "rate limit of " + caller.ratePerMinute()
          + " requests per minute reached for key '" + caller.id() + "'; retry in " + wait + " s"));
    }
    return Optional.empty();
  }

  @Override
  public void completed(Caller caller, Permission needed, HttpServerRequest req, int status) {
    if ((needed != Permission.ADMIN && needed != Permission.REVIEW) || !STATE_CHANGING.contains(req.method())
        || req.path().startsWith("/api/keys")) {
      return; // reads are not audited; key administration writes its own, more specific lines
    }
    String path = req.path().length() > 300 ? req.path().substring(0, 300) : req.path();
    AuditEntry entry = new AuditEntry(0, System.currentTimeMillis(), caller.id(), caller.role(),
        "http " + req.method().name() + " " + path, path, status,
        new JsonObject().put("permission", needed.wireName()));
    audit.append(entry).onFailure(err -> LOG.log(Level.SEVERE, "audit log append failed", err));
  }

  static boolean isLoopback(SocketAddress remote) {
    if (remote == null || remote.host() == null) {
      return false;
    }
    String h = remote.host().toLowerCase(Locale.ROOT);
    return h.startsWith("127.") || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1") || h.equals("[::1]");
  }
}
