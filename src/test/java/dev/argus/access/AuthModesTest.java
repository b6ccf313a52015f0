package dev.argus.access;

import dev.argus.config.ArgusConfig;
import dev.argus.config.AuthConf;
import dev.argus.config.ConfigLoader;
import dev.argus.config.HttpConf;
import dev.argus.config.Settings;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.PubSecKeyOptions;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Protected mode's two faces and single sign-on: by default (loopback bind, {@code auth.required=false}) a loopback
 * client without a key is served and a bad key is still refused, and no key is created; keys become required with
 * {@code ARGUS_AUTH_REQUIRED} or any non-loopback bind; JWTs signed with the configured secret and issuer are accepted
 * with the role and namespaces of their claims.
 */
class AuthModesTest {

  private static HttpResponse<String> get(int port, String path, String bearer) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
    if (bearer != null) {
      b.header("Authorization", "Bearer " + bearer);
    }
    return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void keysAreRequiredWhenConfiguredOrWhenBoundBeyondLoopback() {
    JsonObject raw = ConfigLoader.load(ArgusConfig.DEFAULT_FILE, Map.of());
    ArgusConfig shipped = ArgusConfig.from(raw);
    assertFalse(shipped.auth().keysRequired(shipped.http()), "the shipped configuration: loopback, no keys");
    ArgusConfig env = ArgusConfig.from(ConfigLoader.load(ArgusConfig.DEFAULT_FILE, Map.of("ARGUS_AUTH_REQUIRED", "true")));
    assertTrue(env.auth().keysRequired(env.http()));
    ArgusConfig wide = shipped.with("http", "host", "0.0.0.0");
    assertTrue(wide.auth().keysRequired(wide.http()), "any non-loopback bind requires keys");
    assertTrue(shipped.auth().keysRequired(shipped.with("http", "host", "192.168.1.20").http()));
    assertFalse(shipped.auth().keysRequired(shipped.with("http", "host", "localhost").http()));
    // a rate limit for an unknown role, or a JWT without its key, stops start-up naming the setting
    assertTrue(assertThrowsConfig(new JsonObject().put("rateLimits", new JsonObject().put("root", 5))).contains("rateLimits"));
    assertTrue(assertThrowsConfig(new JsonObject().put("jwtEnabled", true)).contains("jwtSecretFile"));
  }

  private static String assertThrowsConfig(JsonObject section) {
    try {
      AuthConf.from(new Settings("auth", section));
    } catch (RuntimeException e) {
      return e.getMessage();
    }
    throw new AssertionError("accepted: " + section);
  }

  @Test
  void byDefaultLoopbackClientsAreServedWithoutAKeyButBadKeysAreRefused() throws Exception {
    Vertx vertx = Vertx.vertx();
    TestApp app = await(TestApp.start(vertx, TestApp.config(TestApp.tempDataDir())
        .with("http", "allowedOrigins", new JsonArray().add("http://trusted.example"))));
    try {
      // CORS allow-list: the listed origin gets CORS headers and a preflight answer; others get none (and are served)
      HttpClient client = HttpClient.newHttpClient();
      HttpResponse<String> trusted = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port()
          + "/api/namespaces")).header("Origin", "http://trusted.example").build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, trusted.statusCode(), trusted.body());
      assertEquals("http://trusted.example", trusted.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
      HttpResponse<String> preflight = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port()
              + "/api/search")).method("OPTIONS", HttpRequest.BodyPublishers.noBody())
          .header("Origin", "http://trusted.example").header("Access-Control-Request-Method", "POST")
          .header("Access-Control-Request-Headers", "authorization,content-type").build(),
          HttpResponse.BodyHandlers.ofString());
      assertTrue(preflight.statusCode() == 204 || preflight.statusCode() == 200, preflight.statusCode() + " "
          + preflight.body());
      assertTrue(preflight.headers().firstValue("Access-Control-Allow-Headers").orElse("").toLowerCase()
          .contains("authorization"), preflight.headers().map().toString());
      HttpResponse<String> other = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port()
          + "/api/namespaces")).header("Origin", "http://evil.example").build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, other.statusCode(), other.body());
      assertTrue(other.headers().firstValue("Access-Control-Allow-Origin").isEmpty());

      HttpResponse<String> who = get(app.port(), "/api/auth/whoami", null);
      assertEquals(200, who.statusCode(), who.body());
      assertEquals("local", new JsonObject(who.body()).getString("id"));
      assertEquals(200, get(app.port(), "/api/documents", null).statusCode());
      assertEquals(401, get(app.port(), "/api/documents", "argus_aaaaaaaaaaaa_" + "E".repeat(43)).statusCode());
      assertEquals(0, app.main().access().ring().size(), "no key is created when keys are not required");
    } finally {
      await(app.stop());
      await(vertx.close());
    }
  }

  @Test
  void tokensFromTheConfiguredIssuerCarryTheirRoleAndNamespaces() throws Exception {
    Path dir = TestApp.tempDataDir();
    Path secret = dir.resolve("jwt.secret");
    Files.writeString(secret, "a-shared-secret-of-the-sso-of-at-least-32-bytes");
    ArgusConfig conf = TestApp.config(dir).with("auth", "jwtSecretFile", secret.toString())
        .with("auth", "jwtIssuer", "https://sso.example").with("auth", "jwtEnabled", true);
    Vertx vertx = Vertx.vertx();
    ProtectedApp.Started started = ProtectedApp.start(vertx, conf);
    TestApp app = started.app();
    try {
      JWTAuth sso = JWTAuth.create(vertx, new JWTAuthOptions().addPubSecKey(new PubSecKeyOptions()
          .setAlgorithm("HS256").setBuffer("a-shared-secret-of-the-sso-of-at-least-32-bytes")));
      JWTAuth impostor = JWTAuth.create(vertx, new JWTAuthOptions().addPubSecKey(new PubSecKeyOptions()
          .setAlgorithm("HS256").setBuffer("another-secret-entirely-of-32-bytes-or-more")));
      JWTOptions issued = new JWTOptions().setIssuer("https://sso.example").setExpiresInMinutes(5);
      String analyst = sso.generateToken(new JsonObject().put("sub", "kim").put("role", "analyst")
          .put("namespaces", new JsonArray().add("alpha")), issued);

      HttpResponse<String> who = get(app.port(), "/api/auth/whoami", analyst);
      assertEquals(200, who.statusCode(), who.body());
      JsonObject caller = new JsonObject(who.body());
      assertEquals("jwt:kim", caller.getString("id"));
      assertEquals("analyst", caller.getString("role"));
      assertEquals(new JsonArray().add("alpha"), caller.getJsonArray("namespaces"));
      assertEquals(403, get(app.port(), "/api/keys", analyst).statusCode(), "an analyst token is no admin");

      String wrongIssuer = sso.generateToken(new JsonObject().put("sub", "kim").put("role", "admin"),
          new JWTOptions().setIssuer("https://evil.example"));
      assertEquals(401, get(app.port(), "/api/auth/whoami", wrongIssuer).statusCode());
      String forged = impostor.generateToken(new JsonObject().put("sub", "kim").put("role", "admin"), issued);
      assertEquals(401, get(app.port(), "/api/auth/whoami", forged).statusCode());
      String noRole = sso.generateToken(new JsonObject().put("sub", "kim").put("role", "root"), issued);
      assertEquals(403, get(app.port(), "/api/auth/whoami", noRole).statusCode());
      String expired = sso.generateToken(new JsonObject().put("sub", "kim").put("role", "admin")
          .put("exp", System.currentTimeMillis() / 1000 - 3600), new JWTOptions().setIssuer("https://sso.example"));
      assertEquals(401, get(app.port(), "/api/auth/whoami", expired).statusCode());
      assertEquals(200, get(app.port(), "/api/keys", started.adminKey()).statusCode(), "keys work beside tokens");
    } finally {
      await(app.stop());
      await(vertx.close());
    }
  }
}
