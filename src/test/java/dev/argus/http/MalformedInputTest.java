package dev.argus.http;

import dev.argus.config.ArgusConfig;
import dev.argus.testing.RawHttp;
import dev.argus.testing.RawHttp.Response;
import dev.argus.testing.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every malformed input the fuzzing of issue 9 found answering 500, and its neighbours, as one table: each case is
 * a raw request and the 4xx status and code it must get, in the API's JSON error shape, on the real service. NUL
 * characters in ids, titles, metadata, texts, questions and queries are refused at the edge, so no store sees them.
 * Runs on SQLite here and on PostgreSQL in {@link PgMalformedInputTest}; afterwards nothing was stored.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MalformedInputTest {

  private static final String HOST = "Host: localhost\r\n";
  private static final String NUL = "\\u0000";

  private Vertx vertx;
  private TestApp app;

  /** One request and what it must get ({@code code} null: any code, as long as the shape is right). */
  record Case(String name, String request, int status, String code) {
  }

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    app = await(TestApp.start(vertx, configure(TestApp.config(TestApp.tempDataDir()))));
  }

  /** The service's configuration; a subclass runs the same cases on another store. */
  protected ArgusConfig configure(ArgusConfig conf) {
    return conf;
  }

  /** Called after the service has stopped. */
  protected void released() {
  }

  @AfterAll
  void stop() {
    await(app.stop());
    await(vertx.close());
    released();
  }

  private static String post(String path, String type, String body) {
    return "POST " + path + " HTTP/1.1\r\n" + HOST + (type == null ? "" : "Content-Type: " + type + "\r\n")
        + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
  }

  private static String json(String path, String body) {
    return post(path, "application/json", body);
  }

  private static String get(String path) {
    return "GET " + path + " HTTP/1.1\r\n" + HOST + "\r\n";
  }

  private static String multipart(String boundaryParameter, String body) {
    return post("/api/documents", "multipart/form-data" + boundaryParameter, body);
  }

  private static String part(String disposition, String extraHeaders, String content) {
    return "--B\r\nContent-Disposition: form-data" + disposition + "\r\n" + extraHeaders + "Content-Type: text/plain"
        + "\r\n\r\n" + content + "\r\n--B--\r\n";
  }

  static List<Case> cases() {
    List<Case> c = new ArrayList<>();
    for (String route : new String[] {"/api/search", "/api/chat", "/api/documents", "/api/eval/retrieval",
        "/v1/chat/completions"}) {
      c.add(new Case("empty body " + route, json(route, ""), 400, "invalid_json"));
      c.add(new Case("not JSON " + route, json(route, "{\"query\": "), 400, "invalid_json"));
      c.add(new Case("JSON array " + route, json(route, "[1, 2]"), 400, "invalid_json"));
      c.add(new Case("NUL in a value " + route, json(route, "{\"query\": \"a" + NUL + "b\", \"question\": \"a" + NUL
          + "b\", \"messages\": [{\"role\": \"user\", \"content\": \"x" + NUL + "\"}]}"), 400, "invalid_character"));
    }
    c.add(new Case("empty boundary", multipart("; boundary=", "0123456789"), 400, "malformed_request"));
    c.add(new Case("no boundary", multipart("", "0123456789"), 400, "malformed_request"));
    c.add(new Case("part without a name", multipart("; boundary=B", part("; filename=\"a.txt\"", "", "hello")), 400,
        "malformed_request"));
    c.add(new Case("part headers over 4 KB", multipart("; boundary=B", part("; name=\"file\"; filename=\"a.txt\"",
        "X-Long: " + "a".repeat(5000) + "\r\n", "hello")), 400, "malformed_request"));
    c.add(new Case("NUL in an uploaded file", multipart("; boundary=B", part("; name=\"file\"; filename=\"a.txt\"",
        "", "bin\u0000ary")), 400, "invalid_character"));
    c.add(new Case("request without Host", "GET /api/health HTTP/1.1\r\n\r\n", 400, "missing_host"));
    c.add(new Case("empty JSONL", post("/api/documents", "application/x-ndjson", ""), 400, "empty_batch"));
    c.add(new Case("NUL in a JSONL line", post("/api/documents", "application/x-ndjson",
        "{\"title\": \"T\", \"text\": \"x" + NUL + "\"}\n"), 400, "invalid_character"));
    c.add(new Case("NUL in a short query", json("/api/search", "{\"query\": \"ab" + NUL + "\"}"), 400,
        "invalid_character"));
    c.add(new Case("NUL in an id", json("/api/documents", "{\"id\": \"a" + NUL + "\", \"title\": \"T\", \"text\": \"x\"}"),
        400, "invalid_character"));
    c.add(new Case("NUL in a title", json("/api/documents", "{\"title\": \"T" + NUL + "\", \"text\": \"x\"}"), 400,
        "invalid_character"));
    c.add(new Case("NUL in a metadata value", json("/api/documents", "{\"title\": \"T\", \"text\": \"x\", "
        + "\"metadata\": {\"k\": \"v" + NUL + "\"}}"), 400, "invalid_character"));
    c.add(new Case("NUL in a metadata key", json("/api/documents", "{\"title\": \"T\", \"text\": \"x\", "
        + "\"metadata\": {\"k" + NUL + "\": \"v\"}}"), 400, "invalid_character"));
    c.add(new Case("NUL in a question", json("/api/chat", "{\"question\": \"what" + NUL + "?\"}"), 400,
        "invalid_character"));
    c.add(new Case("NUL in a filter", json("/api/search", "{\"query\": \"refund\", \"filters\": {\"region\": \"e"
        + NUL + "\"}}"), 400, "invalid_character"));
    c.add(new Case("NUL in a path id", get("/api/documents/a%00b"), 400, "invalid_uri"));
    c.add(new Case("NUL in a query parameter", get("/api/documents?namespace=%00"), 400, "invalid_uri"));
    c.add(new Case("bad escape in the query", get("/api/documents?%ZZ=1"), 400, "invalid_uri"));
    c.add(new Case("bad escape in the path", get("/api/documents/%ZZ"), 400, "invalid_uri"));
    c.add(new Case("target not a path", "GET * HTTP/1.1\r\n" + HOST + "\r\n", 400, "invalid_uri"));
    c.add(new Case("HEAD on a POST route", "HEAD /api/search HTTP/1.1\r\n" + HOST + "\r\n", 405, "method_not_allowed"));
    c.add(new Case("GET on a POST route", get("/api/search"), 405, "method_not_allowed"));
    c.add(new Case("unknown method", "BREW /api/health HTTP/1.1\r\n" + HOST + "\r\n", 405, "method_not_allowed"));
    c.add(new Case("unknown API path", get("/api/nope"), 404, "not_found"));
    c.add(new Case("unknown page", get("/nope.html"), 404, "not_found"));
    c.add(new Case("unsupported media type", post("/api/search", "text/plain", "{}"), 415, "unsupported_media_type"));
    c.add(new Case("both framings", "POST /api/search HTTP/1.1\r\n" + HOST + "Content-Type: application/json\r\n"
        + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400, "malformed_request"));
    c.add(new Case("content length not a number", "POST /api/search HTTP/1.1\r\n" + HOST
        + "Content-Length: abc\r\n\r\n", 400, "malformed_request"));
    c.add(new Case("header line without a colon", "GET /api/health HTTP/1.1\r\n" + HOST + "NoColonHere\r\n\r\n", 400,
        "malformed_request"));
    c.add(new Case("headers too large", "GET /api/health HTTP/1.1\r\n" + HOST + "X-Big: " + "b".repeat(20_000)
        + "\r\n\r\n", 431, "headers_too_large"));
    c.add(new Case("request line too long", get("/api/documents?q=" + "q".repeat(10_000)), 414, "uri_too_long"));
    c.add(new Case("bad topK", json("/api/search", "{\"query\": \"refund\", \"topK\": 100000}"), 400, null));
    c.add(new Case("bad run id", get("/api/runs/not%20a%20run"), 400, "invalid_run_id"));
    c.add(new Case("bad Last-Event-ID", "GET /api/runs/r-1/events HTTP/1.1\r\n" + HOST + "Last-Event-ID: x\r\n\r\n",
        400, "invalid_last_event_id"));
    c.add(new Case("unknown job", get("/api/ingest/jobs/" + "j".repeat(300)), 404, "unknown_job"));
    c.add(new Case("bad replace parameter", json("/api/documents?replace=maybe", "{\"title\": \"T\", \"text\": \"x\"}"),
        400, "invalid_parameter"));
    return c;
  }

  @Test
  void everyMalformedInputIsA4xxJsonErrorAndNothingIsStored() throws IOException {
    List<String> wrong = new ArrayList<>();
    for (Case c : cases()) {
      Response r = RawHttp.exchange(app.port(), c.request().getBytes(StandardCharsets.UTF_8), 0);
      String problem = check(c, r);
      if (problem != null) {
        wrong.add(c.name() + ": " + problem);
      }
    }
    assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    JsonObject all = new JsonObject(RawHttp.exchange(app.port(), get("/api/documents")).body());
    assertEquals(0, all.getInteger("total"), "no malformed request stored anything: " + all.encode());
  }

  private static String check(Case c, Response r) {
    if (r.status() != c.status()) {
      return "status " + r.status() + " instead of " + c.status() + ": " + r.body();
    }
    if (c.request().startsWith("HEAD ")) {
      return null; // a HEAD answer has no body to check
    }
    JsonObject json;
    try {
      json = r.json();
    } catch (RuntimeException e) {
      return "not JSON: " + r.headers().get("content-type") + " " + r.body();
    }
    boolean openAi = c.request().contains(" /v1/");
    JsonObject error = openAi ? json.getJsonObject("error") : json;
    String message = openAi ? error.getString("message") : json.getString("error");
    if (message == null || message.isBlank() || error.getString("code") == null) {
      return "not the error shape: " + r.body();
    }
    if (c.code() != null && !c.code().equals(error.getString("code"))) {
      return "code " + error.getString("code") + " instead of " + c.code() + ": " + r.body();
    }
    return message.contains("Exception") ? "an exception leaks: " + message : null;
  }

  @Test
  void theTableCoversEveryIssueCase() {
    List<String> names = cases().stream().map(Case::name).toList();
    for (String required : new String[] {"empty boundary", "part without a name", "part headers over 4 KB",
        "request without Host", "empty JSONL", "NUL in a short query", "bad escape in the query", "NUL in an id",
        "NUL in a question", "NUL in a title", "NUL in a metadata value"}) {
      assertTrue(names.contains(required), required);
    }
    assertFalse(names.stream().distinct().count() < names.size(), "case names are unique");
  }
}
