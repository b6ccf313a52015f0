package dev.argus.http;

import dev.argus.config.ArgusConfig;
import dev.argus.testing.TestApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The search page is served by the real HTTP server, needs no external resource, and never parses data as HTML. */
@ExtendWith(VertxExtension.class)
class WebrootTest {

  @Test
  void pageIsServedWithItsAssets(Vertx vertx, VertxTestContext ctx) {
    ArgusConfig conf = TestApp.config(TestApp.tempDataDir());
    HttpVerticle http = new HttpVerticle(conf.http(), conf.data().dir().resolve("uploads"), List.of());
    WebClient client = WebClient.create(vertx);
    vertx.deployVerticle(http)
        .compose(id -> client.get(http.actualPort(), "127.0.0.1", "/").send())
        .compose(index -> {
          ctx.verify(() -> {
            assertEquals(200, index.statusCode());
            String html = index.bodyAsString();
            assertTrue(html.contains("<script src=\"app.js\"></script>"));
            assertTrue(html.contains("href=\"app.css\""));
            assertTrue(html.contains("href=\"chat.html\""));
          });
          Future<HttpResponse<Buffer>> js = client.get(http.actualPort(), "127.0.0.1", "/app.js").send();
          Future<HttpResponse<Buffer>> css = client.get(http.actualPort(), "127.0.0.1", "/app.css").send();
          return Future.all(js, css).map(v -> new int[] {js.result().statusCode(), css.result().statusCode()});
        })
        .onComplete(ctx.succeeding(codes -> ctx.verify(() -> {
          assertEquals(200, codes[0]);
          assertEquals(200, codes[1]);
          ctx.completeNow();
        })));
  }

  @Test
  void noInnerHtmlAndNoExternalResources() throws IOException {
    String js = Files.readString(Path.of("webroot", "app.js"));
    String html = Files.readString(Path.of("webroot", "index.html"));
    String css = Files.readString(Path.of("webroot", "app.css"));
    assertFalse(Pattern.compile("\\.(innerHTML|outerHTML)\\s*=|insertAdjacentHTML|document\\.write").matcher(js).find());
    for (String text : new String[] {js, html, css}) {
      assertFalse(Pattern.compile("(src|href)=\"(https?:)?//").matcher(text).find(), "external resource");
      assertFalse(text.contains("@import url(http"), "external stylesheet");
    }
  }
}
