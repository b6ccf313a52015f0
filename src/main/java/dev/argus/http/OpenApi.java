package dev.argus.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;

import java.io.IOException;
import java.io.InputStream;

/**
 * The OpenAPI 3 document of the HTTP API ({@code src/main/resources/openapi.json}, written by hand next to the routes
 * it describes), served as is at {@code GET /openapi.json} without a key, like the web shell. {@code OpenApiTest}
 * holds it against the running router: every route is documented and every documented route exists.
 */
final class OpenApi {

  static final String PATH = "/openapi.json";
  private static final String RESOURCE = "openapi.json";

  private OpenApi() {
  }

  /** Reads the document from the class path (blocking: call it off the event loop). */
  static Buffer load() throws IOException {
    try (InputStream in = OpenApi.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IOException(RESOURCE + " is not on the class path");
      }
      return Buffer.buffer(in.readAllBytes());
    }
  }

  static void mount(Router router, Buffer document) {
    Permission.require(router.get(PATH), Permission.PUBLIC).handler(ctx -> ctx.response()
        .putHeader("Content-Type", "application/json")
        .putHeader("Cache-Control", "no-cache")
        .end(document));
  }
}
