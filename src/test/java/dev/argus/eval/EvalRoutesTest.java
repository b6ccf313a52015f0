package dev.argus.eval;

import dev.argus.config.ArgusConfig;
import dev.argus.http.HttpVerticle;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code POST /api/eval/retrieval} over a real HTTP server (the HTTP verticle alone: the route needs no store). */
@ExtendWith(VertxExtension.class)
class EvalRoutesTest {

  private static final double EPS = 1e-6;
  private WebClient client;
  private int port;

  @BeforeEach
  void start(Vertx vertx, VertxTestContext ctx) {
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir());
    HttpVerticle http = new HttpVerticle(conf.http(), conf.data().dir().resolve("uploads"), List.of(new EvalRoutes()));
    client = WebClient.create(vertx);
    vertx.deployVerticle(http).onComplete(ctx.succeeding(id -> {
      port = http.actualPort();
      ctx.completeNow();
    }));
  }

  private Future<HttpResponse<Buffer>> post(String contentType, String body) {
    return client.post(port, "127.0.0.1", "/api/eval/retrieval").putHeader("Content-Type", contentType)
        .sendBuffer(Buffer.buffer(body));
  }

  @Test
  void perQueryAndMeanMetrics(VertxTestContext ctx) {
    JsonObject body = new JsonObject().put("k", 5).put("queries", new JsonArray()
        .add(new JsonObject().put("id", "q1").put("retrieved", new JsonArray(List.of("d1", "d2", "d3", "d4", "d5")))
            .put("relevant", new JsonObject().put("d2", 2).put("d4", 1).put("d9", 3)))
        .add(new JsonObject().put("retrieved", new JsonArray(List.of("a", "b", "c")))
            .put("relevant", new JsonArray(List.of("c")))));
    post("application/json", body.encode()).onComplete(ctx.succeeding(resp -> ctx.verify(() -> {
      assertEquals(200, resp.statusCode(), resp.bodyAsString());
      JsonObject json = resp.bodyAsJsonObject();
      assertEquals(5, json.getInteger("k"));
      assertEquals(2, json.getInteger("count"));
      JsonObject q1 = json.getJsonArray("queries").getJsonObject(0);
      assertEquals("q1", q1.getString("id"));
      // q1 (see RetrievalMetricsTest): hit 1, MRR 1/2, nDCG@5 0.355436, recall 2/3, precision 2/5
      assertEquals(1.0, q1.getDouble("hitRate@5"), EPS);
      assertEquals(0.5, q1.getDouble("mrr@5"), EPS);
      assertEquals(0.355436, q1.getDouble("ndcg@5"), EPS);
      assertEquals(0.666667, q1.getDouble("recall@5"), EPS);
      assertEquals(0.4, q1.getDouble("precision@5"), EPS);
      // q2: a b c with c relevant (list form = grade 1): MRR 1/3, nDCG 1/log2(4) = 0.5, recall 1, precision 1/5
      JsonObject q2 = json.getJsonArray("queries").getJsonObject(1);
      assertEquals("1", q2.getString("id"));
      assertEquals(0.333333, q2.getDouble("mrr@5"), EPS);
      assertEquals(0.5, q2.getDouble("ndcg@5"), EPS);
      // means: MRR (0.5 + 0.333333)/2 = 0.416667; nDCG (0.355436 + 0.5)/2 = 0.427718; recall 0.833333; P 0.3
      JsonObject mean = json.getJsonObject("mean");
      assertEquals(1.0, mean.getDouble("hitRate@5"), EPS);
      assertEquals(0.416667, mean.getDouble("mrr@5"), EPS);
      assertEquals(0.427718, mean.getDouble("ndcg@5"), EPS);
      assertEquals(0.833333, mean.getDouble("recall@5"), EPS);
      assertEquals(0.3, mean.getDouble("precision@5"), EPS);
      ctx.completeNow();
    })));
  }

  @Test
  void defaultKIsTen(VertxTestContext ctx) {
    // a b c with c relevant, k defaults to 10: precision@10 = 1/10
    String body = "{\"queries\": [{\"retrieved\": [\"a\", \"b\", \"c\"], \"relevant\": [\"c\"]}]}";
    post("application/json", body).onComplete(ctx.succeeding(resp -> ctx.verify(() -> {
      assertEquals(200, resp.statusCode());
      assertEquals(0.1, resp.bodyAsJsonObject().getJsonObject("mean").getDouble("precision@10"), EPS);
      ctx.completeNow();
    })));
  }

  @Test
  void validationErrorsAre4xxJson(VertxTestContext ctx) {
    record Case(String contentType, String body, int status, String code) {
    }
    List<Case> cases = List.of(
        new Case("application/json", "{not json", 400, "invalid_json"),
        new Case("text/plain", "{}", 415, "unsupported_media_type"),
        new Case("application/json", "{}", 400, "missing_field"),
        new Case("application/json", "{\"queries\": []}", 400, "empty_field"),
        new Case("application/json", "{\"queries\": \"x\"}", 400, "invalid_field"),
        new Case("application/json", "{\"k\": 0, \"queries\": [{\"retrieved\": [], \"relevant\": []}]}", 400,
            "invalid_field"),
        new Case("application/json", "{\"queries\": [{\"relevant\": [\"a\"]}]}", 400, "missing_field"),
        new Case("application/json", "{\"queries\": [{\"retrieved\": \"a\", \"relevant\": [\"a\"]}]}", 400,
            "invalid_field"),
        new Case("application/json", "{\"queries\": [{\"retrieved\": [\"a\"], \"relevant\": {\"a\": -1}}]}", 400,
            "invalid_field"),
        new Case("application/json", "{\"queries\": [{\"retrieved\": [\"\"], \"relevant\": [\"a\"]}]}", 400,
            "invalid_field"),
        new Case("application/json", "{\"queries\": [7]}", 400, "invalid_field"));
    Future<Void> chain = Future.succeededFuture();
    for (Case c : cases) {
      chain = chain.compose(v -> post(c.contentType(), c.body()).map(resp -> {
        ctx.verify(() -> {
          assertEquals(c.status(), resp.statusCode(), c.body() + " -> " + resp.bodyAsString());
          JsonObject json = resp.bodyAsJsonObject();
          assertEquals(c.code(), json.getString("code"), c.body());
          assertEquals(String.class, json.getValue("error").getClass());
        });
        return null;
      }));
    }
    chain.onComplete(ctx.succeedingThenComplete());
  }
}
