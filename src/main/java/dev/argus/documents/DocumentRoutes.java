package dev.argus.documents;

import dev.argus.http.Caller;
import dev.argus.http.Permission;
import dev.argus.common.ApiException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.ext.web.RoutingContext;
import io.vertx.core.http.HttpMethod;
import dev.argus.ingest.DocumentRules;
import dev.argus.documents.DocumentsVerticle;

import dev.argus.bus.Addresses;
import dev.argus.http.Bus;
import dev.argus.http.Requests;
import dev.argus.http.RouteGroup;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;

/**
 * {@code GET /api/documents?namespace=&offset=&limit=} ({@code {documents, total}}), {@code GET
 * /api/documents/{id}} (the whole document with {@code text} and {@code chunks}) and {@code DELETE
 * /api/documents/{id}} ({@code {deleted: true, id}}); unknown ids are 404. {@code GET /api/namespaces}: the
 * namespaces that hold documents, with their document counts ({@link NamespaceCount}).
 */
public final class DocumentRoutes implements RouteGroup {

  private final Bus bus;

  public DocumentRoutes(Bus bus) {
    this.bus = bus;
  }

  /** Reads need {@code read}; writes need {@code ingest}. */
  @Override
  public Permission permission(HttpMethod method) {
    return Permission.defaultFor(method) == Permission.READ ? Permission.READ : Permission.INGEST;
  }

  @Override
  public void mount(Router router) {
    router.get("/api/documents").respond(ctx -> {
      String namespace = ctx.request().getParam("namespace");
      DocumentListRequest query = new DocumentListRequest(Caller.of(ctx).namespaceFor(
          namespace != null && !namespace.isEmpty() ? DocumentRules.namespace(namespace) : null),
          Requests.queryInt(ctx, "offset", 0, 0, 100_000_000),
          Requests.queryInt(ctx, "limit", 50, 1, DocumentsVerticle.MAX_LIST_LIMIT));
      return bus.request(Addresses.DOCUMENTS_LIST, query.toJson());
    });
    router.get("/api/namespaces").respond(ctx -> bus.request(Addresses.KNOWLEDGE_NAMESPACE_COUNTS, new JsonObject())
        .map(counts -> visible(counts, Caller.of(ctx))));
    router.get("/api/documents/:id").respond(ctx -> readable(ctx, ctx.pathParam("id")));
    router.delete("/api/documents/:id").respond(ctx -> readable(ctx, ctx.pathParam("id"))
        .compose(doc -> bus.request(Addresses.DOCUMENT_DELETE, new DocumentRef(ctx.pathParam("id")).toJson())));
  }

  /** The document, when the caller may read its namespace; otherwise 404 as if it did not exist. */
  private Future<JsonObject> readable(RoutingContext ctx, String id) {
    Caller caller = Caller.of(ctx);
    return bus.request(Addresses.DOCUMENT_GET, new DocumentRef(id).toJson()).compose(doc -> caller.mayRead(
        doc.getString("namespace")) ? Future.succeededFuture(doc)
        : Future.failedFuture(ApiException.notFound("not_found", "no document with id '"
            + (id.length() > 100 ? id.substring(0, 100) : id) + "'")));
  }

  /** Only the namespaces the caller may read ({@code total}: how many of them there are). */
  private static JsonObject visible(JsonObject counts, Caller caller) {
    if (!caller.limited()) {
      return counts;
    }
    JsonArray kept = new JsonArray();
    for (Object o : counts.getJsonArray("namespaces", new JsonArray())) {
      if (o instanceof JsonObject ns && caller.mayRead(ns.getString("name"))) {
        kept.add(ns);
      }
    }
    return counts.copy().put("namespaces", kept).put("total", kept.size());
  }
}
