package dev.argus.http;

import dev.argus.metrics.Metrics;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The OpenAPI document served at {@code /openapi.json} against the running service's router (the whole service, as
 * {@code MainVerticle} wires it): every route registered on the router is documented, and every documented route is
 * registered. Routes are walked from {@link io.vertx.ext.web.Router#getRoutes()}: a route with methods and a path
 * template is an operation ({@code :id} is {@code {id}}; the {@code HEAD} every {@code GET} also answers is implied);
 * a route without methods is either request middleware (listed below) or a mount (a sub-router such as the SockJS
 * bridge), which the document lists under {@code x-argus-mounts}. The static pages (one regex route) are not API.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenApiTest {

  /** Method-less routes that only prepare requests for the routes after them (body handling), not endpoints. */
  private static final Set<String> MIDDLEWARE = Set.of("/api/", "/v1/"); // "/api/*": Vert.x keeps the prefix without its star
  private static final Set<String> OPERATIONS = Set.of("get", "put", "post", "delete", "patch", "head", "options");
  private static final Pattern TEMPLATE_PARAM = Pattern.compile("\\{([^}]+)}");

  private Vertx vertx;
  private TestApp app;
  private JsonObject doc;
  private HttpResponse<Buffer> served;

  @BeforeAll
  void start() {
    vertx = Metrics.vertxWithMetrics(new VertxOptions()); // as `argus serve` starts it: /metrics is mounted
    app = await(TestApp.start(vertx, TestApp.config(TestApp.tempDataDir())));
    WebClient client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(app.port()));
    served = await(client.get("/openapi.json").send());
    doc = served.bodyAsJsonObject();
  }

  @AfterAll
  void stop() {
    if (vertx != null) {
      await(vertx.close());
    }
  }

  @Test
  void servedAsAnOpenApi3JsonDocument() {
    assertEquals(200, served.statusCode());
    assertTrue(served.getHeader("Content-Type").startsWith("application/json"), served.getHeader("Content-Type"));
    assertTrue(doc.getString("openapi", "").startsWith("3."), "openapi version: " + doc.getString("openapi"));
    assertTrue(!doc.getJsonObject("info").getString("title", "").isBlank(), "info.title");
    assertTrue(doc.getJsonObject("paths").size() > 40, "paths: " + doc.getJsonObject("paths").size());
    assertTrue(doc.getJsonObject("components").getJsonObject("securitySchemes").containsKey("bearer"), "bearer scheme");
  }

  @Test
  void everyRouteIsDocumentedAndEveryDocumentedRouteExists() {
    Set<String> registered = new TreeSet<>();
    Set<String> mounts = new TreeSet<>();
    for (Route route : app.main().http().routes()) {
      String path = route.getPath();
      if (path == null) {
        continue; // handlers of every request, and the static pages (a regex route has no path template)
      }
      Set<HttpMethod> methods = route.methods();
      if (methods == null || methods.isEmpty()) {
        if (!MIDDLEWARE.contains(path)) {
          mounts.add(path);
        }
        continue;
      }
      for (HttpMethod m : methods) {
        if (m == HttpMethod.HEAD && methods.contains(HttpMethod.GET)) {
          continue; // answered by every GET route
        }
        registered.add(m.name() + " " + path.replaceAll(":([A-Za-z0-9_]+)", "{$1}"));
      }
    }
    Set<String> documented = new TreeSet<>();
    JsonObject paths = doc.getJsonObject("paths");
    for (String path : paths.fieldNames()) {
      for (String key : paths.getJsonObject(path).fieldNames()) {
        if (OPERATIONS.contains(key)) {
          documented.add(key.toUpperCase(Locale.ROOT) + " " + path);
        }
      }
    }
    assertTrue(registered.size() > 40, "routes found on the router: " + registered);
    assertEquals(List.of(), difference(registered, documented), "routes on the router that the document lacks");
    assertEquals(List.of(), difference(documented, registered), "documented routes that the router lacks");
    Set<String> documentedMounts = new TreeSet<>();
    doc.getJsonArray("x-argus-mounts", new JsonArray()).forEach(m -> documentedMounts.add(((JsonObject) m).getString("path")));
    assertEquals(mounts, documentedMounts, "mounted sub-routers (x-argus-mounts)");
  }

  @Test
  void everyOperationHasASummaryResponsesAndItsPathParameters() {
    List<String> problems = new ArrayList<>();
    JsonObject paths = doc.getJsonObject("paths");
    for (String path : paths.fieldNames()) {
      Set<String> inPath = new TreeSet<>();
      Matcher m = TEMPLATE_PARAM.matcher(path);
      while (m.find()) {
        inPath.add(m.group(1));
      }
      JsonObject item = paths.getJsonObject(path);
      for (String key : item.fieldNames()) {
        if (!OPERATIONS.contains(key)) {
          continue;
        }
        JsonObject op = item.getJsonObject(key);
        String where = key.toUpperCase(Locale.ROOT) + " " + path;
        if (op.getString("summary", "").isBlank()) {
          problems.add(where + ": no summary");
        }
        if (op.getJsonObject("responses", new JsonObject()).isEmpty()) {
          problems.add(where + ": no responses");
        }
        Set<String> declared = new TreeSet<>();
        JsonArray params = new JsonArray().addAll(item.getJsonArray("parameters", new JsonArray()))
            .addAll(op.getJsonArray("parameters", new JsonArray()));
        for (Object p : params) {
          JsonObject param = (JsonObject) p;
          if ("path".equals(param.getString("in"))) {
            declared.add(param.getString("name"));
          }
        }
        if (!declared.equals(inPath)) {
          problems.add(where + ": path parameters " + declared + " but the template has " + inPath);
        }
      }
    }
    assertEquals(List.of(), problems);
  }

  @Test
  void theDocumentedPermissionIsTheOneTheGateAsksFor() {
    PermissionTable table = app.main().http().permissions();
    List<String> wrong = new ArrayList<>();
    JsonObject paths = doc.getJsonObject("paths");
    for (String path : paths.fieldNames()) {
      String example = path.replaceAll("\\{[^}]+}", "x1");
      JsonObject item = paths.getJsonObject(path);
      for (String key : item.fieldNames()) {
        if (!OPERATIONS.contains(key)) {
          continue;
        }
        String documented = item.getJsonObject(key).getString("x-argus-permission");
        String needed = table.needed(HttpMethod.valueOf(key.toUpperCase(Locale.ROOT)), example).wireName();
        if (!needed.equals(documented)) {
          wrong.add(key.toUpperCase(Locale.ROOT) + " " + path + ": documented " + documented + ", the gate asks " + needed);
        }
      }
    }
    assertEquals(List.of(), wrong);
  }

  private static List<String> difference(Set<String> a, Set<String> b) {
    List<String> out = new ArrayList<>(a);
    out.removeAll(b);
    return out;
  }
}
