package dev.argus.documents;

import dev.argus.ingest.DocumentRules;
import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
import dev.argus.bus.BusFailures;
import dev.argus.embed.Embedder;
import dev.argus.knowledge.Chunk;
import dev.argus.knowledge.Document;
import dev.argus.knowledge.KnowledgeStore;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.function.Function;

/**
 * The knowledge base's documents over the bus: list, get (whole document with its chunks), delete (publishes
 * {@link Addresses#KNOWLEDGE_CHANGED}), a chunk's neighbours, the namespaces, and store stats with the embedder's
 * identity. Requests and replies are the records of this package ({@link DocumentRef}, {@link NeighboursRequest},
 * {@link DocumentListRequest}, {@link KnowledgeNamespaces}).
 */
public final class DocumentsVerticle extends VerticleBase {

  public static final int MAX_LIST_LIMIT = 500;
  public static final int MAX_NEIGHBOURS = 20;

  private final KnowledgeStore store;
  private final Embedder embedder;

  public DocumentsVerticle(KnowledgeStore store, Embedder embedder) {
    this.store = store;
    this.embedder = embedder;
  }

  @Override
  public Future<?> start() {
    return Future.all(List.of(
        consume(Addresses.DOCUMENTS_LIST, this::list),
        consume(Addresses.DOCUMENT_GET, this::get),
        consume(Addresses.DOCUMENT_DELETE, this::delete),
        consume(Addresses.CHUNK_NEIGHBOURS, this::neighbours),
        consume(Addresses.KNOWLEDGE_STATS, body -> stats()),
        consume(Addresses.KNOWLEDGE_NAMESPACES, body -> namespaces()),
        consume(Addresses.KNOWLEDGE_NAMESPACE_COUNTS, body -> NamespaceCount.list(store)),
        consume(Addresses.KNOWLEDGE_CONSISTENCY, body -> consistency())));
  }

  /** The store's own checks plus the recorded embedding model against the embedder this process loaded. */
  private Future<JsonObject> consistency() {
    return Future.all(store.consistency(), store.stats()).map(cf -> {
      java.util.List<dev.argus.knowledge.ConsistencyCheck> checks = new java.util.ArrayList<>(cf.resultAt(0));
      dev.argus.knowledge.StoreStats stats = cf.resultAt(1);
      boolean same = stats.embeddingModel() == null
          || (stats.embeddingModel().equals(embedder.modelName()) && stats.dimension() == embedder.dimension());
      checks.add(new dev.argus.knowledge.ConsistencyCheck("embedder", same, "loaded " + embedder.modelName() + " ("
          + embedder.dimension() + "), store records " + stats.embeddingModel() + " (" + stats.dimension() + ")"));
      JsonArray out = new JsonArray();
      checks.forEach(c -> out.add(c.toJson()));
      return new JsonObject().put("ok", checks.stream().allMatch(dev.argus.knowledge.ConsistencyCheck::ok))
          .put("store", store.type()).put("checks", out);
    });
  }

  private Future<Void> consume(String address, Function<JsonObject, Future<JsonObject>> handler) {
    return vertx.eventBus().<JsonObject>consumer(address, (Message<JsonObject> msg) -> {
      Future<JsonObject> reply;
      try {
        reply = handler.apply(msg.body() == null ? new JsonObject() : msg.body());
      } catch (RuntimeException e) {
        reply = Future.failedFuture(e);
      }
      reply.onSuccess(msg::reply).onFailure(err -> BusFailures.fail(msg, err));
    }).completion();
  }

  private Future<JsonObject> list(JsonObject body) {
    DocumentListRequest req = DocumentListRequest.fromJson(body);
    String namespace = req.namespace();
    if (namespace != null) {
      DocumentRules.namespace(namespace);
    }
    int offset = Math.max(0, req.offset());
    int limit = Math.min(MAX_LIST_LIMIT, Math.max(1, req.limit()));
    return store.list(namespace, offset, limit).map(page -> {
      JsonArray docs = new JsonArray();
      page.documents().forEach(d -> docs.add(d.toJson(false)));
      return new JsonObject().put("documents", docs).put("total", page.total()).put("offset", offset)
          .put("limit", limit);
    });
  }

  private Future<JsonObject> get(JsonObject body) {
    String id = required(DocumentRef.fromJson(body).id(), "id");
    return store.document(id).compose(found -> {
      if (found.isEmpty()) {
        return Future.failedFuture(unknown(id));
      }
      Document doc = found.get();
      return store.chunks(id, 0, Integer.MAX_VALUE).map(chunks -> doc.toJson(true).put("chunks", chunkJson(chunks)));
    });
  }

  private Future<JsonObject> delete(JsonObject body) {
    String id = required(DocumentRef.fromJson(body).id(), "id");
    return store.document(id).compose(found -> {
      if (found.isEmpty()) {
        return Future.failedFuture(unknown(id));
      }
      String namespace = found.get().namespace();
      return store.delete(id).compose(deleted -> {
        if (!deleted) {
          return Future.failedFuture(unknown(id));
        }
        vertx.eventBus().publish(Addresses.KNOWLEDGE_CHANGED, new JsonObject().put("namespace", namespace)
            .put("documentId", id).put("change", "delete"));
        return Future.succeededFuture(new JsonObject().put("deleted", true).put("id", id));
      });
    });
  }

  private Future<JsonObject> neighbours(JsonObject body) {
    NeighboursRequest req = NeighboursRequest.fromJson(body);
    String id = required(req.documentId(), "documentId");
    int index = req.index();
    int before = Math.min(MAX_NEIGHBOURS, Math.max(0, req.before()));
    int after = Math.min(MAX_NEIGHBOURS, Math.max(0, req.after()));
    return store.chunks(id, Math.max(0, index - before), index + after)
        .map(chunks -> new JsonObject().put("chunks", chunkJson(chunks)));
  }

  private Future<JsonObject> stats() {
    return store.stats().map(stats -> stats.toJson()
        .put("embedder", new JsonObject().put("model", embedder.modelName()).put("dimension", embedder.dimension())));
  }

  private Future<JsonObject> namespaces() {
    return store.namespaces().map(ns -> new KnowledgeNamespaces(ns.stream().sorted().toList()).toJson());
  }

  private static JsonArray chunkJson(List<Chunk> chunks) {
    JsonArray out = new JsonArray();
    for (Chunk c : chunks) {
      out.add(new JsonObject().put("index", c.index()).put("total", c.total()).put("text", c.text()));
    }
    return out;
  }

  private static String required(String id, String field) {
    if (id == null || id.isBlank()) {
      throw ApiException.badRequest("missing_field", "field '" + field + "' is required");
    }
    return id;
  }

  private static ApiException unknown(String id) {
    return ApiException.notFound("unknown_document", "no document '" + id + "'");
  }
}
