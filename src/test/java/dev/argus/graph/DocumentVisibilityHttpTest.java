package dev.argus.graph;

import dev.argus.access.ProtectedApp;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Document nodes in graph answers follow the key's namespace limit (the real service, keys required): two documents
 * mention one e-mail address, one ingested into {@code alpha}, one into {@code beta}; a key limited to
 * {@code [default, alpha]} sees the alpha document in the address's graph, never the beta one (nor its MENTIONS edge,
 * nor in a search), and reading the beta document's entity, its relation or investigating it answers 404 as if it were
 * absent; an unlimited key sees both.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DocumentVisibilityHttpTest {

  private static final String EMAIL = "email:nora@shared-ns.example";
  private static final String ALPHA = "doc:ns-alpha-doc";
  private static final String BETA = "doc:ns-beta-doc";

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private Vertx vertx;
  private TestApp app;
  private String admin;
  private String limited;
  private String unlimited;

  @BeforeAll
  void start() throws Exception {
    vertx = Vertx.vertx();
    ProtectedApp.Started started = ProtectedApp.start(vertx, TestApp.config(TestApp.tempDataDir()));
    app = started.app();
    admin = started.adminKey();
    limited = key(new JsonObject().put("role", "analyst")
        .put("namespaces", new JsonArray().add("default").add("alpha")));
    unlimited = key(new JsonObject().put("role", "analyst"));
    ingest("ns-alpha-doc", "Alpha dossier", "alpha", "The alpha case names nora@shared-ns.example as contact.");
    ingest("ns-beta-doc", "Beta dossier", "beta", "The beta case also names nora@shared-ns.example as contact.");
    // the graph takes documents in after they are stored: wait until both document nodes hang off the address
    Set<String> ids = Set.of();
    for (int i = 0; i < 120 && !(ids.contains(ALPHA) && ids.contains(BETA)); i++) {
      HttpResponse<String> g = send("GET", graphPath(EMAIL), null, admin);
      if (g.statusCode() == 200) {
        ids = nodeIds(new JsonObject(g.body()));
      }
      if (!(ids.contains(ALPHA) && ids.contains(BETA))) {
        Thread.sleep(250);
      }
    }
    assertTrue(ids.contains(ALPHA) && ids.contains(BETA), "both document nodes in the graph: " + ids);
  }

  @AfterAll
  void stop() {
    await(vertx.close());
  }

  @Test
  void theLimitedKeySeesOnlyItsNamespacesDocumentsInAGraph() throws Exception {
    JsonObject sub = ok(send("GET", graphPath(EMAIL), null, limited));
    Set<String> ids = nodeIds(sub);
    assertTrue(ids.contains(EMAIL), ids.toString());
    assertTrue(ids.contains(ALPHA), ids.toString());
    assertFalse(ids.contains(BETA), ids.toString());
    for (Object o : sub.getJsonArray("edges")) {
      JsonObject e = (JsonObject) o;
      assertFalse(BETA.equals(e.getString("from")) || BETA.equals(e.getString("to")), e.encode());
      assertTrue(ids.contains(e.getString("from")) && ids.contains(e.getString("to")), e.encode());
    }
    assertTrue(sub.getJsonArray("edges").stream().anyMatch(o -> ALPHA.equals(((JsonObject) o).getString("from"))),
        sub.encode());
  }

  @Test
  void theUnlimitedKeySeesBoth() throws Exception {
    JsonObject sub = ok(send("GET", graphPath(EMAIL), null, unlimited));
    Set<String> ids = nodeIds(sub);
    assertTrue(ids.contains(ALPHA) && ids.contains(BETA), ids.toString());
    assertEquals(2, sub.getJsonArray("edges").stream()
        .filter(o -> Types.MENTIONS.equals(((JsonObject) o).getString("type"))).count(), sub.encode());
    assertEquals("beta", ok(send("GET", entityPath(BETA), null, unlimited)).getJsonObject("attributes")
        .getString("namespace"));
    assertEquals(200, send("GET", relationPath(mentionOf(BETA)), null, unlimited).statusCode());
  }

  @Test
  void readingAHiddenDocumentAnswersAsIfAbsent() throws Exception {
    HttpResponse<String> entity = send("GET", entityPath(BETA), null, limited);
    HttpResponse<String> absent = send("GET", entityPath("doc:no-such-doc"), null, limited);
    assertEquals(404, entity.statusCode(), entity.body());
    assertEquals(404, absent.statusCode(), absent.body());
    assertEquals("not_found", new JsonObject(entity.body()).getString("code"));
    assertEquals(new JsonObject(absent.body()).getString("error").replace("no-such-doc", "ns-beta-doc"),
        new JsonObject(entity.body()).getString("error"), "the same answer as for an absent entity");
    assertEquals(404, send("GET", graphPath(BETA), null, limited).statusCode());
    assertEquals("alpha", ok(send("GET", entityPath(ALPHA), null, limited)).getJsonObject("attributes")
        .getString("namespace"));
  }

  @Test
  void relationsTouchingAHiddenDocumentAre404() throws Exception {
    HttpResponse<String> beta = send("GET", relationPath(mentionOf(BETA)), null, limited);
    assertEquals(404, beta.statusCode(), beta.body());
    assertEquals("not_found", new JsonObject(beta.body()).getString("code"));
    JsonObject alpha = ok(send("GET", relationPath(mentionOf(ALPHA)), null, limited));
    assertEquals(ALPHA, alpha.getString("from"));
  }

  @Test
  void searchAndInvestigationHideTheDocument() throws Exception {
    JsonObject all = ok(send("GET", "/api/entities/search?q=dossier&type=document", null, unlimited));
    assertTrue(ids(all.getJsonArray("entities")).containsAll(Set.of(ALPHA, BETA)), all.encode());
    JsonObject mine = ok(send("GET", "/api/entities/search?q=dossier&type=document", null, limited));
    assertTrue(ids(mine.getJsonArray("entities")).contains(ALPHA), mine.encode());
    assertFalse(ids(mine.getJsonArray("entities")).contains(BETA), mine.encode());
    String body = new JsonObject().put("entity", BETA).encode();
    assertEquals(404, send("POST", "/api/graph/investigate", body, limited).statusCode());
    assertEquals(200, send("POST", "/api/graph/investigate", body, unlimited).statusCode());
    assertEquals(200, send("POST", "/api/graph/investigate", new JsonObject().put("entity", ALPHA).encode(), limited)
        .statusCode());
  }

  private static String mentionOf(String doc) {
    return EntityIds.edge(Types.MENTIONS, doc, EMAIL);
  }

  private void ingest(String id, String title, String namespace, String text) throws Exception {
    HttpResponse<String> r = send("POST", "/api/documents?wait=true", new JsonObject().put("id", id).put("title", title)
        .put("namespace", namespace).put("text", text).encode(), admin);
    assertEquals(201, r.statusCode(), r.body());
  }

  private String key(JsonObject body) throws Exception {
    HttpResponse<String> r = send("POST", "/api/keys", body.encode(), admin);
    assertEquals(201, r.statusCode(), r.body());
    return new JsonObject(r.body()).getString("secret");
  }

  private static String enc(String id) {
    return URLEncoder.encode(id, StandardCharsets.UTF_8);
  }

  private static String graphPath(String id) {
    return "/api/entities/" + enc(id) + "/graph?depth=1";
  }

  private static String entityPath(String id) {
    return "/api/entities/" + enc(id);
  }

  private static String relationPath(String id) {
    return "/api/relations/" + enc(id);
  }

  private static Set<String> nodeIds(JsonObject sub) {
    return ids(sub.getJsonArray("nodes"));
  }

  private static Set<String> ids(JsonArray nodes) {
    Set<String> out = new HashSet<>();
    nodes.forEach(o -> out.add(((JsonObject) o).getString("id")));
    return out;
  }

  private static JsonObject ok(HttpResponse<String> r) {
    assertEquals(200, r.statusCode(), r.body());
    JsonObject body = new JsonObject(r.body());
    assertNotNull(body);
    return body;
  }

  private HttpResponse<String> send(String method, String path, String body, String key) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
        .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + key)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
