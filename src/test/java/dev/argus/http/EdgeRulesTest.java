package dev.argus.http;

import dev.argus.config.ArgusConfig;
import dev.argus.metrics.Metrics;
import dev.argus.testing.RawHttp;
import dev.argus.testing.RawHttp.Response;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The HTTP edge of the real service, spoken to over raw sockets: methods (405 with {@code Allow}, also for unknown
 * names, which never reach the metrics; {@code HEAD} on every {@code GET} route), request targets, {@code Host},
 * cross-origin writes, security headers, framing (both lengths, 413 without draining) and the connection timeouts.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EdgeRulesTest {

  private static final String HOST = "Host: localhost\r\n";
  private Vertx vertx;
  private TestApp app;
  private int port;

  @BeforeAll
  void start() throws IOException {
    vertx = Metrics.vertxWithMetrics(new VertxOptions());
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir())
        .with("http", "headerTimeoutMs", 1500)
        .with("http", "bodyTimeoutMs", 3000)
        .with("http", "maxBodyBytes", 64 * 1024)
        .with("http", "allowedOrigins", new JsonArray().add("http://trusted.example"));
    app = await(TestApp.start(vertx, conf));
    port = app.port();
    Response created = post("/api/documents?wait=true", "application/json",
        new JsonObject().put("id", "edge-doc").put("title", "Edge").put("namespace", "t-edge")
            .put("text", "The edge document stays.").encode(), "");
    assertEquals(201, created.status(), created.body());
  }

  @AfterAll
  void stop() {
    await(app.stop());
    await(vertx.close());
  }

  private Response get(String path, String extraHeaders) throws IOException {
    return quick("GET " + path + " HTTP/1.1\r\n" + HOST + extraHeaders + "\r\n");
  }

  /** One exchange without waiting to see whether the server closes the connection. */
  private Response quick(String request) throws IOException {
    return RawHttp.exchange(port, request.getBytes(StandardCharsets.UTF_8), 0);
  }

  private Response post(String path, String type, String body, String extraHeaders) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return quick("POST " + path + " HTTP/1.1\r\n" + HOST + "Content-Type: " + type
        + "\r\nContent-Length: " + bytes.length + "\r\n" + extraHeaders + "\r\n" + body);
  }

  private static void assertJsonError(Response r, int status, String code) {
    assertEquals(status, r.status(), r.body());
    assertTrue(r.header("content-type").startsWith("application/json"), r.headers().toString());
    JsonObject json = r.json();
    assertEquals(code, json.getString("code"), r.body());
    assertFalse(json.getString("error").isBlank());
  }

  private String metrics() throws IOException {
    Response r = get("/metrics", "");
    assertEquals(200, r.status());
    return r.body();
  }

  private static Set<String> series(String metrics, String prefix) {
    return metrics.lines().filter(l -> l.startsWith(prefix)).map(l -> l.substring(0, l.lastIndexOf(' ')))
        .collect(Collectors.toSet());
  }

  @Test
  void unknownMethodsAre405AndNeverBecomeMetricSeries() throws IOException {
    metrics();
    Set<String> before = series(metrics(), "vertx_http_server");
    try (RawHttp http = new RawHttp(port)) {
      for (int i = 0; i < 500; i++) {
        http.send(String.format("X%07d /api/health HTTP/1.1\r\n%s\r\n", i, HOST));
        Response r = http.read();
        assertEquals(405, r.status());
        assertEquals("method_not_allowed", r.json().getString("code"));
        assertEquals("GET, HEAD", r.header("allow"));
      }
    }
    String after = metrics();
    assertFalse(after.contains("X0000"), "no series names an invented method");
    Set<String> added = series(after, "vertx_http_server");
    added.removeAll(before);
    // the only new series may come from the GET /metrics scrapes themselves
    assertTrue(added.stream().allMatch(s -> s.contains("method=\"GET\"")), added.toString());
  }

  @Test
  void labelsAreRouteTemplatesNeverRawPaths() throws IOException {
    try (RawHttp http = new RawHttp(port)) {
      for (int i = 0; i < 50; i++) {
        http.send("GET /api/documents/doc-raw-" + i + " HTTP/1.1\r\n" + HOST + "\r\n");
        assertEquals(404, http.read().status());
      }
    }
    String text = metrics();
    assertFalse(text.contains("doc-raw-"), "raw paths are not labels");
    assertTrue(text.contains("/api/documents/:id"), "the route template is the label");
  }

  @Test
  void activeRequestsComeBackDownAfterStaticFiles() throws IOException {
    for (String page : new String[] {"/", "/app.js", "/app.css", "/index.html", "/chat.html"}) {
      for (int i = 0; i < 3; i++) {
        assertEquals(200, get(page, "").status(), page);
      }
    }
    String gauge = metrics().lines().filter(l -> l.startsWith("vertx_http_server_active_requests{method=\"GET\"}"))
        .findFirst().orElseThrow();
    // hand count: the 15 page requests have ended; only the scrape answering now is active
    assertEquals(1.0, Double.parseDouble(gauge.substring(gauge.lastIndexOf(' ') + 1)), gauge);
  }

  @Test
  void headAnswersOnEveryGetRouteWithoutABody() throws IOException {
    for (String path : new String[] {"/api/health", "/api/health/live", "/api/documents", "/", "/app.js"}) {
      try (RawHttp http = new RawHttp(port)) {
        http.send("HEAD " + path + " HTTP/1.1\r\n" + HOST + "\r\n");
        Response r = http.read(true);
        assertEquals(200, r.status(), path);
        assertFalse(http.closedWithin(300), "the connection stays usable after HEAD " + path);
        http.send("GET /api/health/live HTTP/1.1\r\n" + HOST + "\r\n");
        assertEquals(200, http.read().status(), "next request after HEAD " + path);
      }
    }
  }

  @Test
  void wrongMethodsAre405WithAllowAndUnknownPathsAreJson404() throws IOException {
    Response put = RawHttp.exchange(port, "PUT /api/search HTTP/1.1\r\n" + HOST + "Content-Length: 0\r\n\r\n");
    assertJsonError(put, 405, "method_not_allowed");
    assertEquals("POST", put.header("allow"));
    Response post = post("/api/documents/edge-doc", "application/json", "{}", "");
    assertJsonError(post, 405, "method_not_allowed");
    assertEquals("DELETE, GET, HEAD", post.header("allow"));
    Response page = post("/index.html", "application/json", "{}", "");
    assertJsonError(page, 405, "method_not_allowed");
    assertEquals("GET, HEAD", page.header("allow"));
    assertJsonError(get("/api/nothing-here", ""), 404, "not_found");
    assertJsonError(get("/nothing-here.html", ""), 404, "not_found");
    Response v1 = get("/v1/nothing", "");
    assertEquals(404, v1.status());
    assertEquals("not_found", v1.json().getJsonObject("error").getString("code"), "the OpenAI API's own error shape");
  }

  @Test
  void malformedTargetsAre400Json() throws IOException {
    assertJsonError(get("/api/documents?%ZZ=1", ""), 400, "invalid_uri");
    assertJsonError(get("/api/documents/%ZZ", ""), 400, "invalid_uri");
    assertJsonError(get("/api/documents/a%00b", ""), 400, "invalid_uri");
    assertJsonError(get("/api/documents?namespace=%00", ""), 400, "invalid_uri");
    assertJsonError(get("/api/documents?offset=%", ""), 400, "invalid_uri");
  }

  @Test
  void hostMustBeOneOfTheServersNames() throws IOException {
    assertJsonError(RawHttp.exchange(port, "GET /api/health HTTP/1.1\r\n\r\n"), 400, "missing_host");
    assertJsonError(RawHttp.exchange(port, "GET / HTTP/1.0\r\n\r\n"), 400, "missing_host");
    assertJsonError(RawHttp.exchange(port, "GET /api/health HTTP/1.1\r\nHost: rebind.attacker.example:" + port
        + "\r\n\r\n"), 403, "host_not_allowed");
    for (String host : new String[] {"localhost:" + port, "127.0.0.1:" + port, "[::1]:" + port, "LOCALHOST"}) {
      assertEquals(200, RawHttp.exchange(port, "GET /api/health/live HTTP/1.1\r\nHost: " + host + "\r\n\r\n").status(),
          host);
    }
  }

  @Test
  void crossOriginWritesAreRefusedAndChangeNothing() throws IOException {
    String doc = new JsonObject().put("id", "evil-doc").put("title", "Evil").put("namespace", "t-edge")
        .put("text", "Planted by another site.").encode();
    String form = "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"evil.txt\"\r\n"
        + "Content-Type: text/plain\r\n\r\nplanted\r\n--B--\r\n";
    assertJsonError(post("/api/documents", "multipart/form-data; boundary=B", form,
        "Origin: http://evil.example\r\n"), 403, "cross_origin_refused");
    assertJsonError(post("/api/documents", "text/plain", doc, "Origin: http://evil.example\r\n"), 403,
        "cross_origin_refused");
    assertJsonError(post("/api/documents", "application/x-www-form-urlencoded", "a=b",
        "Sec-Fetch-Site: cross-site\r\n"), 403, "cross_origin_refused");
    assertJsonError(post("/api/documents", "application/json", doc, "Sec-Fetch-Site: same-site\r\n"
        + "Origin: http://sub.localhost\r\n"), 403, "cross_origin_refused");
    assertJsonError(RawHttp.exchange(port, "DELETE /api/documents/edge-doc HTTP/1.1\r\n" + HOST
        + "Origin: null\r\n\r\n"), 403, "cross_origin_refused");
    assertEquals(404, get("/api/documents/evil-doc", "").status(), "nothing was stored");
    assertEquals(200, get("/api/documents/edge-doc", "").status(), "nothing was deleted");

    String search = new JsonObject().put("query", "edge").encode();
    assertEquals(200, post("/api/search", "application/json", search, "Origin: http://localhost\r\n"
        + "Sec-Fetch-Site: same-origin\r\n").status(), "the page's own origin may");
    assertEquals(200, post("/api/search", "application/json", search, "Origin: http://trusted.example\r\n"
        + "Sec-Fetch-Site: cross-site\r\n").status(), "an origin of http.allowedOrigins may");
    assertEquals(200, post("/api/search", "application/json", search, "").status(), "a client that is no browser may");
    assertEquals(200, get("/api/documents/edge-doc", "Origin: http://evil.example\r\n").status(),
        "reads are not state changes");
  }

  @Test
  void everyResponseCarriesTheSecurityHeaders() throws IOException {
    for (Response r : new Response[] {get("/", ""), get("/api/health", ""), get("/api/nothing", ""),
        RawHttp.exchange(port, "X1 / HTTP/1.1\r\n" + HOST + "\r\n")}) {
      assertEquals(SecurityHeaders.CSP, r.header("content-security-policy"));
      assertTrue(r.header("content-security-policy").contains("frame-ancestors 'none'"));
      assertTrue(r.header("content-security-policy").contains("script-src 'self'"));
      assertEquals("nosniff", r.header("x-content-type-options"));
      assertEquals("DENY", r.header("x-frame-options"));
      assertEquals("no-referrer", r.header("referrer-policy"));
    }
  }

  @Test
  void bothContentLengthAndChunkedAreRejectedAndTheConnectionClosed() throws IOException {
    Response r = RawHttp.exchange(port, "POST /api/documents HTTP/1.1\r\n" + HOST
        + "Content-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
    assertJsonError(r, 400, "malformed_request");
    assertTrue(r.closed(), "the connection is closed after the answer");
  }

  @Test
  void anOversizedBodyIs413AndTheConnectionClosesInsteadOfDraining() throws IOException {
    // announced: answered before any body byte is read
    Response announced = RawHttp.exchange(port, "POST /api/search HTTP/1.1\r\n" + HOST
        + "Content-Type: application/json\r\nContent-Length: 200000000\r\n\r\n");
    assertJsonError(announced, 413, "payload_too_large");
    assertTrue(announced.closed());
    // chunked: the limit is found while reading; the server stops reading instead of draining 200 MB
    try (Socket socket = new Socket("127.0.0.1", port)) {
      OutputStream out = socket.getOutputStream();
      out.write(("POST /api/search HTTP/1.1\r\n" + HOST + "Content-Type: application/json\r\n"
          + "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
      byte[] chunk = new byte[64 * 1024];
      Arrays.fill(chunk, (byte) 'x');
      byte[] head = (Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
      long sent = 0;
      try {
        for (int i = 0; i < 3200; i++) { // up to 200 MB
          out.write(head);
          out.write(chunk);
          out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
          sent += chunk.length;
        }
      } catch (IOException closed) {
        // expected: the server closed the connection
      }
      assertTrue(sent < 50L * 1024 * 1024, "the server stopped reading after " + sent + " bytes");
    }
  }

  @Test
  void silentAndTricklingConnectionsAreClosed() throws Exception {
    try (RawHttp silent = new RawHttp(port)) {
      assertTrue(silent.closedWithin(10_000), "a connection that sends nothing is closed");
    }
    try (Socket trickle = new Socket("127.0.0.1", port)) {
      OutputStream out = trickle.getOutputStream();
      byte[] request = ("GET /api/health HTTP/1.1\r\n" + HOST + "X-Slow: " + "a".repeat(200) + "\r\n\r\n")
          .getBytes(StandardCharsets.ISO_8859_1);
      long start = System.nanoTime();
      boolean closed = false;
      try {
        for (byte b : request) {
          out.write(b);
          out.flush();
          Thread.sleep(100);
          if (System.nanoTime() - start > 15_000_000_000L) {
            break;
          }
        }
      } catch (IOException e) {
        closed = true;
      }
      long seconds = (System.nanoTime() - start) / 1_000_000_000L;
      assertTrue(closed, "a client that trickles its headers is cut off (after " + seconds + " s)");
      assertTrue(seconds < 12, "within the header timeout and some slack: " + seconds + " s");
    }
    try (RawHttp kept = new RawHttp(port)) {
      kept.send("GET /api/health/live HTTP/1.1\r\n" + HOST + "\r\n");
      assertEquals(200, kept.read().status());
      assertTrue(kept.closedWithin(10_000), "an idle keep-alive connection is closed too");
    }
  }

  @Test
  void healthSaysLiveAndReady() throws IOException {
    assertEquals(new JsonObject().put("status", "live"), get("/api/health/live", "").json());
    assertEquals(new JsonObject().put("status", "ready"), get("/api/health/ready", "").json());
    JsonObject health = get("/api/health", "").json();
    assertEquals("ready", health.getString("status"));
    assertEquals(true, health.getBoolean("ready"));
    assertNull(health.getString("code"));
  }
}
