package dev.argus.access;

import dev.argus.store.Database;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@link KeyStore} and {@link AuditStore} contract, run on SQLite ({@link SqliteAccessStoreTest}) and PostgreSQL
 * ({@link PgAccessStoreTest}): keys keep only a hash, revocation, the ring's constant-time match, and an audit log the
 * database itself keeps append-only.
 */
abstract class AccessStoreContract {

  private Vertx vertx;
  private Database db;
  private KeyStore keys;
  private AuditStore audit;

  protected abstract Future<Database> openDatabase(Vertx vertx);

  protected void dropDatabase() {
  }

  @BeforeEach
  void open() {
    vertx = Vertx.vertx();
    db = await(openDatabase(vertx));
    keys = KeyStore.of(db);
    audit = AuditStore.of(db);
  }

  @AfterEach
  void close() {
    await(db.close());
    await(vertx.close());
    dropDatabase();
  }

  @Test
  void keysAreStoredHashedListedAndRevoked() {
    KeyService service = new KeyService(keys, audit, 10);
    KeyService.Created a = await(service.create(new KeyService.KeyRequest(Role.ANALYST, List.of("alpha", "beta"), 30,
        "team A"), "tester", "admin"));
    KeyService.Created b = await(service.create(new KeyService.KeyRequest(Role.READER, null, null, null), "tester",
        "admin"));
    assertTrue(a.text().startsWith("argus_" + a.key().id() + "_"), a.text());
    assertEquals(6 + 12 + 1 + 43, a.text().length()); // "argus_" + id + "_" + 43 base64url chars (256 bits)
    assertEquals(2, await(keys.countActive()));
    ApiKey stored = await(keys.find(a.key().id())).orElseThrow();
    assertEquals(List.of("alpha", "beta"), stored.namespaces());
    assertEquals(30, stored.rateLimit());
    assertEquals(Role.ANALYST, stored.role());
    assertNull(await(keys.find(b.key().id())).orElseThrow().namespaces());
    // the secret is nowhere in the table; its SHA-256 is
    String secret = KeySecrets.parse(a.text()).orElseThrow().secret();
    List<KeyStore.Stored> active = await(keys.active());
    assertEquals(2, active.size());
    for (KeyStore.Stored s : active) {
      assertFalse(s.secretHash().contains(secret));
      assertEquals(64, s.secretHash().length());
    }
    assertEquals(KeySecrets.hash(secret), active.stream().filter(s -> s.key().id().equals(a.key().id())).findFirst()
        .orElseThrow().secretHash());

    KeyRing ring = new KeyRing(keys);
    await(ring.reload());
    assertEquals(Optional.of(a.key().id()), ring.match(a.text()).map(ApiKey::id));
    String wrongSecret = "argus_" + a.key().id() + "_" + "A".repeat(43);
    assertTrue(ring.match(wrongSecret).isEmpty());
    assertTrue(ring.match("argus_" + "z".repeat(12) + "_" + secret).isEmpty(), "right secret, unknown id");
    assertTrue(ring.match("not a key").isEmpty());

    assertEquals(a.key().id(), await(service.revoke(a.key().id(), "tester", "admin")).id());
    assertThrows(RuntimeException.class, () -> await(service.revoke(a.key().id(), "tester", "admin")),
        "revoking twice is a 404");
    await(ring.reload());
    assertTrue(ring.match(a.text()).isEmpty(), "a revoked key no longer matches");
    assertEquals(1, await(keys.countActive()));
    List<ApiKey> all = await(keys.list());
    assertEquals(2, all.size());
    assertFalse(all.stream().filter(k -> k.id().equals(a.key().id())).findFirst().orElseThrow().active());

    // the audit log holds the three actions, newest first, with the creator as actor
    List<AuditEntry> entries = await(audit.list(0, 10));
    assertEquals(List.of("keys.revoke", "keys.create", "keys.create"), entries.stream().map(AuditEntry::action).toList());
    assertEquals(a.key().id(), entries.get(0).target());
    assertEquals("tester", entries.get(0).actor());
    assertEquals("analyst", entries.get(2).detail().getString("role"));
  }

  @Test
  void theKeyLimitIsEnforced() {
    KeyService service = new KeyService(keys, audit, 2);
    await(service.create(new KeyService.KeyRequest(Role.READER, null, null, null), "t", "admin"));
    await(service.create(new KeyService.KeyRequest(Role.READER, null, null, null), "t", "admin"));
    RuntimeException e = assertThrows(RuntimeException.class,
        () -> await(service.create(new KeyService.KeyRequest(Role.READER, null, null, null), "t", "admin")));
    assertTrue(e.getMessage().contains("maximum"), e.getMessage());
    assertEquals(2, await(keys.countActive()));
  }

  @Test
  void theAuditLogIsAppendOnlyInTheDatabase() {
    long first = await(audit.append(new AuditEntry(0, 1000, "k1", "admin", "keys.create", "k2", 0,
        new JsonObject().put("role", "reader"))));
    long second = await(audit.append(new AuditEntry(0, 2000, "k1", "analyst", "http POST /api/reviews/r1",
        "/api/reviews/r1", 200, new JsonObject())));
    assertTrue(second > first);
    List<AuditEntry> page = await(audit.list(0, 1));
    assertEquals(1, page.size());
    assertEquals(second, page.get(0).seq());
    assertEquals(List.of(first), await(audit.list(second, 10)).stream().map(AuditEntry::seq).toList());
    assertEquals("reader", await(audit.list(0, 10)).get(1).detail().getString("role"));

    assertThrows(RuntimeException.class, () -> await(db.pool().query("UPDATE audit_log SET actor = 'x'").execute()));
    assertThrows(RuntimeException.class, () -> await(db.pool().query("DELETE FROM audit_log").execute()));
    if (db.dialect() == Database.Dialect.POSTGRES) {
      assertThrows(RuntimeException.class, () -> await(db.pool().query("TRUNCATE audit_log").execute()));
    }
    List<AuditEntry> after = await(audit.list(0, 10));
    assertEquals(2, after.size());
    assertEquals("k1", after.get(1).actor());
  }
}
