package dev.argus.access;

import dev.argus.config.ArgusConfig;
import dev.argus.http.Permission;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Access control of the real service with {@code auth.required=true}: the first start prints an admin key; every
 * route (read from the server's own permission table) answered for every role as the role table says; 401 without or
 * with a bad, revoked or mistyped key; both headers; per-key rate limits with {@code Retry-After}; the audit log;
 * namespace-limited keys in search and the documents routes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AccessHttpTest {

  private static final Pattern ADMIN_LINE = Pattern.compile("admin key: (argus_[a-z0-9]{12}_[A-Za-z0-9_-]{43})");

  private Vertx vertx;
  private TestApp app;
  private String adminKey;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final Map<Role, String> keys = new EnumMap<>(Role.class);

  record Reply(int status, String body, HttpResponse<String> raw) {
    JsonObject json() {
      return new JsonObject(body);
    }
  }

  @BeforeAll
  void start() throws Exception {
    vertx = Vertx.vertx();
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir()).with("auth", "required", true);
    ProtectedApp.Started started = ProtectedApp.start(vertx, conf);
    app = started.app();
    adminKey = started.adminKey();
    Matcher m = ADMIN_LINE.matcher(started.printed());
    assertTrue(m.find(), "the first start prints 'admin key: <key>'");
    assertFalse(m.find(), "printed once");
    keys.put(Role.ADMIN, adminKey);
    for (Role r : List.of(Role.ANALYST, Role.UPSTREAM, Role.READER)) {
      Reply created = send("POST", "/api/keys", new JsonObject().put("role", r.wireName()).put("label", "test "
          + r.wireName()).encode(), adminKey, "Authorization");
      assertEquals(201, created.status(), created.body());
      keys.put(r, created.json().getString("secret"));
    }
  }

  @AfterAll
  void stop() {
    await(app.stop());
    await(vertx.close());
  }

  private Reply send(String method, String path, String body, String key, String header) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
        .timeout(Duration.ofSeconds(30))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    if (key != null) {
      b.header(header, header.equals("Authorization") ? "Bearer " + key : key);
    }
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    return new Reply(r.statusCode(), r.body(), r);
  }

  private Reply get(String path, String key) throws Exception {
    return send("GET", path, null, key, "Authorization");
  }

  @Test
  void everyRoleOnEveryRouteAsTheRoleTableSays() throws Exception {
    JsonArray table = app.main().http().permissions().toJson();
    assertTrue(table.size() > 15, "the permission table lists the routes: " + table.encode());
    List<String> problems = new ArrayList<>();
    for (Object o : table) {
      JsonObject route = (JsonObject) o;
      String method = route.getString("method");
      String path = route.getString("path").replaceAll(":[A-Za-z]+", "no-such-id").replace("*", "info");
      Permission needed = Permission.valueOf(route.getString("permission").toUpperCase());
      if (needed == Permission.PUBLIC || path.endsWith("/events")) {
        continue; // public routes are tested below; event streams of unknown runs are 404 as any read
      }
      String body = method.equals("GET") || method.equals("DELETE") ? null : "{}";
      Reply anonymous = send(method, path, body, null, "Authorization");
      if (anonymous.status() != 401 || !anonymous.body().contains("\"code\":\"unauthorized\"")) {
        problems.add("no key " + method + " " + path + " -> " + anonymous.status());
      }
      for (Role role : Role.values()) {
        Reply r = send(method, path, body, keys.get(role), "Authorization");
        boolean allowed = role.may(needed);
        if (allowed && (r.status() == 401 || r.status() == 403)) {
          problems.add(role.wireName() + " " + method + " " + path + " (" + needed.wireName() + ") refused: "
              + r.status() + " " + r.body());
        }
        if (!allowed && (r.status() != 403 || !r.body().contains("\"code\":\"forbidden\""))) {
          problems.add(role.wireName() + " " + method + " " + path + " (" + needed.wireName() + ") not refused: "
              + r.status() + " " + r.body());
        }
      }
    }
    assertEquals(List.of(), problems);
    // HEAD needs what GET needs
    assertEquals(403, send("HEAD", "/api/audit", null, keys.get(Role.READER), "Authorization").status());
    assertEquals(200, send("HEAD", "/api/audit", null, adminKey, "Authorization").status());
    // the table's permissions per route are the declared ones
    assertTrue(table.contains(new JsonObject().put("method", "POST").put("path", "/api/search")
        .put("permission", "search")));
    assertTrue(table.contains(new JsonObject().put("method", "POST").put("path", "/api/keys")
        .put("permission", "admin")));
    assertTrue(table.contains(new JsonObject().put("method", "POST").put("path", "/api/documents")
        .put("permission", "ingest")));
  }

  @Test
  void publicRoutesAndTheStaticShellNeedNoKey() throws Exception {
    assertEquals(200, get("/api/health/live", null).status());
    assertEquals(200, get("/api/health", null).status());
    Reply shell = get("/", null);
    assertEquals(200, shell.status(), shell.body());
    // unknown API paths reveal nothing to anonymous callers
    assertEquals(401, get("/api/no-such-route", null).status());
    assertEquals(401, get("/metrics", null).status());
    assertEquals(404, get("/api/no-such-route", keys.get(Role.READER)).status());
  }

  @Test
  void badMissingAndRevokedKeysAre401AndBothHeadersWork() throws Exception {
    Reply none = get("/api/auth/whoami", null);
    assertEquals(401, none.status());
    assertEquals("Bearer realm=\"argus\"", none.raw().headers().firstValue("WWW-Authenticate").orElse(null));
    assertEquals(401, get("/api/auth/whoami", "argus_aaaaaaaaaaaa_" + "B".repeat(43)).status());
    assertEquals(401, get("/api/auth/whoami", "not-a-key").status());
    String reader = keys.get(Role.READER);
    String wrongSecret = reader.substring(0, reader.length() - 1) + (reader.endsWith("A") ? "B" : "A");
    assertEquals(401, get("/api/auth/whoami", wrongSecret).status());
    Reply bearer = get("/api/auth/whoami", reader);
    assertEquals(200, bearer.status(), bearer.body());
    assertEquals("reader", bearer.json().getString("role"));
    Reply xApiKey = send("GET", "/api/auth/whoami", null, reader, "X-API-Key");
    assertEquals(200, xApiKey.status(), xApiKey.body());
    assertEquals(bearer.json().getString("id"), xApiKey.json().getString("id"));

    Reply created = send("POST", "/api/keys", new JsonObject().put("role", "reader").encode(), adminKey, "Authorization");
    String temp = created.json().getString("secret");
    String id = created.json().getJsonObject("key").getString("id");
    assertFalse(created.body().contains("secret_hash"));
    assertEquals(200, get("/api/auth/whoami", temp).status());
    Reply revoked = send("DELETE", "/api/keys/" + id, null, adminKey, "Authorization");
    assertEquals(200, revoked.status(), revoked.body());
    assertFalse(revoked.json().getBoolean("active"));
    assertEquals(401, get("/api/auth/whoami", temp).status(), "a revoked key is refused at once");
    assertEquals(404, send("DELETE", "/api/keys/" + id, null, adminKey, "Authorization").status());
    // the key list never shows secrets
    Reply list = get("/api/keys", adminKey);
    assertEquals(200, list.status());
    assertFalse(list.body().contains(temp.substring(19)));
  }

  @Test
  void badKeyRequestsAre400AndStoreNothing() throws Exception {
    int before = get("/api/keys", adminKey).json().getJsonArray("keys").size();
    for (String bad : List.of("{}", "{\"role\":\"root\"}", "{\"role\":\"reader\",\"namespaces\":[]}",
        "{\"role\":\"reader\",\"namespaces\":[\"../x\"]}", "{\"role\":\"reader\",\"rateLimit\":-1}",
        "{\"role\":\"reader\",\"label\":" + "\"" + "x".repeat(300) + "\"}", "[1]")) {
      Reply r = send("POST", "/api/keys", bad, adminKey, "Authorization");
      assertEquals(400, r.status(), bad + " -> " + r.body());
      assertNotNull(r.json().getString("code"));
    }
    assertEquals(before, get("/api/keys", adminKey).json().getJsonArray("keys").size());
  }

  @Test
  void aKeyOverItsRateLimitGets429WithRetryAfter() throws Exception {
    Reply created = send("POST", "/api/keys", new JsonObject().put("role", "reader").put("rateLimit", 3).encode(),
        adminKey, "Authorization");
    String key = created.json().getString("secret");
    for (int i = 0; i < 3; i++) {
      assertEquals(200, get("/api/auth/whoami", key).status(), "request " + (i + 1));
    }
    Reply limited = get("/api/auth/whoami", key);
    assertEquals(429, limited.status(), limited.body());
    assertEquals("rate_limited", limited.json().getString("code"));
    // 3 per minute: a token every 60 / 3 = 20 s; the bucket was emptied a moment ago, so 19 < wait <= 20
    long retryAfter = Long.parseLong(limited.raw().headers().firstValue("Retry-After").orElseThrow());
    assertTrue(retryAfter == 20 || retryAfter == 19, "Retry-After " + retryAfter);
    // other keys are not affected
    assertEquals(200, get("/api/auth/whoami", keys.get(Role.READER)).status());
  }

  @Test
  void administrativeActionsAreAudited() throws Exception {
    Reply created = send("POST", "/api/keys", new JsonObject().put("role", "upstream").put("label", "audited")
        .encode(), adminKey, "Authorization");
    String id = created.json().getJsonObject("key").getString("id");
    send("DELETE", "/api/keys/" + id, null, adminKey, "Authorization");
    send("POST", "/api/eval/retrieval", "{}", adminKey, "Authorization"); // an admin POST: audited generically
    Reply audit = get("/api/audit?limit=50", adminKey);
    // the generic line is appended when the response has ended: wait for it
    for (int i = 0; i < 50 && !audit.body().contains("http POST /api/eval/retrieval"); i++) {
      Thread.sleep(100);
      audit = get("/api/audit?limit=50", adminKey);
    }
    assertEquals(200, audit.status(), audit.body());
    String adminId = adminKey.substring(6, 18);
    List<JsonObject> entries = audit.json().getJsonArray("entries").stream().map(JsonObject.class::cast).toList();
    assertTrue(entries.stream().anyMatch(e -> e.getString("action").equals("keys.create")
        && e.getString("target").equals(id) && e.getString("actor").equals(adminId)), audit.body());
    assertTrue(entries.stream().anyMatch(e -> e.getString("action").equals("keys.revoke")
        && e.getString("target").equals(id)), audit.body());
    assertTrue(entries.stream().anyMatch(e -> e.getString("action").equals("http POST /api/eval/retrieval")
        && e.getInteger("outcome") == 400), audit.body());
    assertTrue(entries.stream().anyMatch(e -> e.getString("actor").equals("bootstrap")
        && e.getString("action").equals("keys.create")), "the first admin key's creation is audited");
    assertEquals(403, get("/api/audit", keys.get(Role.ANALYST)).status());
    assertEquals(400, get("/api/audit?limit=0", adminKey).status());
  }

  @Test
  void namespaceLimitedKeysSeeOnlyTheirNamespaces() throws Exception {
    for (String[] d : new String[][] {{"alpha-doc", "alpha"}, {"beta-doc", "beta"}}) {
      Reply r = send("POST", "/api/documents?wait=true", new JsonObject().put("id", d[0]).put("namespace", d[1])
          .put("title", "Refund abuse " + d[1]).put("text", "Refund abuse pattern notes for " + d[1]
              + ": repeated refund claims on delivered parcels.").encode(), adminKey, "Authorization");
      assertEquals(201, r.status(), r.body());
    }
    Reply created = send("POST", "/api/keys", new JsonObject().put("role", "analyst")
        .put("namespaces", new JsonArray().add("alpha")).encode(), adminKey, "Authorization");
    String alpha = created.json().getString("secret");

    String query = new JsonObject().put("query", "refund abuse parcels").put("topK", 10).encode();
    Reply all = send("POST", "/api/search", query, adminKey, "Authorization");
    assertEquals(200, all.status(), all.body());
    assertTrue(all.body().contains("beta-doc") && all.body().contains("alpha-doc"), all.body());
    // one request per leg, and all legs together: beta never appears
    for (String retrievers : List.of("[\"vector\"]", "[\"keyword\"]", "[\"trigram\"]",
        "[\"vector\",\"keyword\",\"trigram\"]")) {
      JsonObject q = new JsonObject().put("query", "refund abuse parcels").put("topK", 10)
          .put("retrievers", new JsonArray(retrievers)).put("allowedNamespaces", new JsonArray().add("beta"));
      Reply limited = send("POST", "/api/search", q.encode(), alpha, "Authorization");
      assertEquals(200, limited.status(), limited.body());
      JsonArray results = limited.json().getJsonArray("results");
      assertFalse(results.isEmpty(), retrievers + ": " + limited.body());
      for (Object hit : results) {
        assertEquals("alpha", ((JsonObject) hit).getString("namespace"), retrievers + ": " + limited.body());
      }
    }
    Reply forbidden = send("POST", "/api/search", new JsonObject().put("query", "refund").put("namespace", "beta")
        .encode(), alpha, "Authorization");
    assertEquals(403, forbidden.status(), forbidden.body());
    assertEquals("namespace_forbidden", forbidden.json().getString("code"));
    // documents: another namespace's document does not exist for this key
    assertEquals(200, get("/api/documents/alpha-doc", alpha).status());
    assertEquals(404, get("/api/documents/beta-doc", alpha).status());
    assertEquals(404, send("DELETE", "/api/documents/beta-doc", null, alpha, "Authorization").status());
    assertEquals(200, get("/api/documents/beta-doc", adminKey).status(), "the refused delete deleted nothing");
    Reply namespaces = get("/api/namespaces", alpha);
    assertEquals(200, namespaces.status(), namespaces.body());
    assertFalse(namespaces.body().contains("beta"), namespaces.body());
    assertTrue(namespaces.body().contains("alpha"), namespaces.body());
    Reply list = get("/api/documents", alpha);
    assertEquals(200, list.status(), list.body());
    assertTrue(list.body().contains("alpha-doc") && !list.body().contains("beta-doc"), list.body());
    assertEquals(403, get("/api/documents?namespace=beta", alpha).status());
  }
}
