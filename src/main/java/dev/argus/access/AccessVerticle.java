package dev.argus.access;

import dev.argus.bus.Addresses;
import dev.argus.bus.BusFailures;
import dev.argus.common.ApiException;
import dev.argus.config.AuthConf;
import dev.argus.http.Gate;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.PrintStream;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Access control's verticle: loads the key ring (and reloads it every {@code auth.keyRefreshMs}), creates the first
 * admin key when keys are required and none exists (printed once on standard output as {@code admin key: <key>},
 * never logged), builds the {@link KeyGate} the HTTP layer and the bridge use, and answers the key and audit
 * addresses ({@link Addresses#ACCESS_KEYS_CREATE}, {@link Addresses#ACCESS_KEYS_LIST},
 * {@link Addresses#ACCESS_KEYS_REVOKE}, {@link Addresses#AUDIT_APPEND}, {@link Addresses#AUDIT_LIST}).
 */
public final class AccessVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(AccessVerticle.class.getName());
  public static final int MAX_AUDIT_PAGE = 500;

  private final AuthConf conf;
  private final boolean keysRequired;
  private final KeyStore keyStore;
  private final AuditStore audit;
  private final PrintStream console;
  private final KeyRing ring;
  private final RateLimiter limiter = new RateLimiter();
  private KeyService keys;
  private KeyGate gate;
  private long refreshTimer = -1;

  /**
   * @param keysRequired whether every request needs a key ({@link AuthConf#keysRequired})
   * @param console      where the first admin key is printed (standard output)
   */
  public AccessVerticle(AuthConf conf, boolean keysRequired, KeyStore keyStore, AuditStore audit,
                        PrintStream console) {
    this.conf = conf;
    this.keysRequired = keysRequired;
    this.keyStore = keyStore;
    this.audit = audit;
    this.console = console;
    this.ring = new KeyRing(keyStore);
  }

  @Override
  public Future<?> start() {
    keys = new KeyService(keyStore, audit, conf.maxKeys());
    Future<JwtVerifier> jwt = conf.jwtEnabled()
        ? vertx.executeBlocking(() -> JwtVerifier.create(vertx, conf), false)
        : Future.succeededFuture(null);
    return jwt.compose(verifier -> {
      gate = new KeyGate(conf, keysRequired, ring, limiter, verifier, audit);
      return ring.reload();
    }).compose(v -> bootstrap()).compose(v -> {
      refreshTimer = vertx.setPeriodic(conf.keyRefreshMs(), id -> ring.reload()
          .onFailure(err -> LOG.log(Level.WARNING, "reloading the API keys failed", err)));
      return Future.all(List.of(
          consumer(Addresses.ACCESS_KEYS_CREATE, this::create),
          consumer(Addresses.ACCESS_KEYS_LIST, body -> keys.list().map(list -> new JsonObject().put("keys",
              new JsonArray(list.stream().map(ApiKey::toJson).toList())))),
          consumer(Addresses.ACCESS_KEYS_REVOKE, this::revoke),
          consumer(Addresses.AUDIT_APPEND, body -> audit.append(AuditEntry.fromJson(body))
              .map(seq -> new JsonObject().put("seq", seq))),
          consumer(Addresses.AUDIT_LIST, this::auditPage)));
    });
  }

  /** The first admin key, when keys are required and none exists. */
  private Future<Void> bootstrap() {
    if (!keysRequired || !conf.bootstrapAdminKey() || ring.size() > 0) {
      return Future.succeededFuture();
    }
    return keyStore.countActive().compose(n -> n > 0 ? Future.succeededFuture() : keys
        .create(new KeyService.KeyRequest(Role.ADMIN, null, null, "first admin key (created at start)"),
            "bootstrap", "system")
        .compose(created -> {
          console.println("admin key: " + created.text());
          console.flush();
          LOG.info("keys are required and none existed: created admin key " + created.key().id()
              + " (printed once on standard output)");
          return ring.reload();
        }));
  }

  private interface Action {
    Future<JsonObject> apply(JsonObject body);
  }

  private Future<Void> consumer(String address, Action action) {
    MessageConsumer<JsonObject> c = vertx.eventBus().consumer(address, msg -> {
      Future<JsonObject> reply;
      try {
        reply = action.apply(msg.body() == null ? new JsonObject() : msg.body());
      } catch (RuntimeException e) {
        reply = Future.failedFuture(e);
      }
      reply.onSuccess(msg::reply).onFailure(err -> BusFailures.fail(msg, err));
    });
    return c.completion();
  }

  private Future<JsonObject> create(JsonObject body) {
    KeyService.KeyRequest req = KeyService.KeyRequest.fromJson(body);
    return keys.create(req, body.getString("actor", "unknown"), body.getString("actorRole", ""))
        .compose(created -> ring.reload().map(v -> created.toJson()));
  }

  private Future<JsonObject> revoke(JsonObject body) {
    String id = body.getString("id");
    if (id == null || id.isBlank() || id.length() > 64) {
      throw ApiException.badRequest("invalid_field", "field 'id' must name a key");
    }
    return keys.revoke(id, body.getString("actor", "unknown"), body.getString("actorRole", ""))
        .compose(k -> ring.reload().map(v -> {
          limiter.forget(id);
          return k.toJson();
        }));
  }

  private Future<JsonObject> auditPage(JsonObject body) {
    long before = body.getLong("before", 0L);
    int limit = Math.max(1, Math.min(MAX_AUDIT_PAGE, body.getInteger("limit", 100)));
    return audit.list(before, limit).map(entries -> {
      JsonObject out = new JsonObject().put("entries", new JsonArray(entries.stream().map(AuditEntry::toJson).toList()));
      if (entries.size() == limit) {
        out.put("next", entries.get(entries.size() - 1).seq());
      }
      return out;
    });
  }

  /** The gate the HTTP layer and the bridge ask (once started). */
  public Gate gate() {
    return gate;
  }

  public KeyRing ring() {
    return ring;
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(refreshTimer);
    return Future.succeededFuture();
  }
}
