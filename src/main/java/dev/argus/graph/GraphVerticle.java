package dev.argus.graph;

import dev.argus.bus.Addresses;
import dev.argus.bus.BusFailures;
import dev.argus.common.ApiException;
import dev.argus.common.Fingerprinter;
import dev.argus.config.GraphConf;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * The entity graph on the bus ({@code argus.graph.*}): builds the graph from records ({@link Addresses#GRAPH_RECORDS_APPLY},
 * sent by the records loader after each committed batch) and from knowledge-base documents (on
 * {@link Addresses#KNOWLEDGE_CHANGED}: the document's chunks are read and their entities extracted), one change at a
 * time, publishing {@link Addresses#GRAPH_CHANGED} after each commit; answers entity, relation, neighbourhood, path
 * and search requests, and the graph tools' requests. A thin adapter over {@link GraphStore}, {@link GraphQueries},
 * {@link GraphAnalysis} and {@link IdentifierRisk}.
 */
public final class GraphVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(GraphVerticle.class.getName());
  static final int MAX_ID = 512;
  static final int MAX_RECORDS = 10_000;

  private final GraphConf conf;
  private final GraphStore store;
  private final Fingerprinter fingerprinter;
  private RecordFacts recordFacts;
  private DocumentFacts documentFacts;
  private GraphAnalysis analysis;
  private IdentifierRisk identifiers;
  private Future<?> tail = Future.succeededFuture();
  /** Tells this verticle's {@link Addresses#GRAPH_CHANGED} events from another process's (a clustered bus). */
  private final String instance = java.util.UUID.randomUUID().toString();

  /**
   * A worker verticle: fact building (libphonenumber, regular expressions over chunks) and the algorithms on bounded
   * subgraphs are CPU work that must not hold an event loop; its store calls stay asynchronous.
   */
  public static DeploymentOptions deploymentOptions() {
    return new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER);
  }

  public GraphVerticle(GraphConf conf, GraphStore store, Fingerprinter fingerprinter) {
    this.conf = conf;
    this.store = store;
    this.fingerprinter = fingerprinter;
  }

  @Override
  public Future<?> start() {
    return vertx.executeBlocking(() -> RiskLists.load(conf.extraFreeMailDomains(), Path.of(conf.flaggedRangesFile()),
        conf.sharedIpUsers()), false).compose(lists -> {
          recordFacts = new RecordFacts(lists.freeMailDomains());
          documentFacts = new DocumentFacts(new TextExtractor(fingerprinter));
          analysis = new GraphAnalysis(store, conf.fanout(), conf.nodeLimit());
          identifiers = new IdentifierRisk(store, lists, conf.fanout());
          var eb = vertx.eventBus();
          GraphQueries q = analysis.queries();
          return Future.all(List.of(
              eb.<JsonObject>consumer(Addresses.GRAPH_RECORDS_APPLY, m -> reply(m, this::applyRecords)).completion(),
              eb.<JsonObject>localConsumer(Addresses.KNOWLEDGE_CHANGED, this::knowledgeChanged).completion(),
              // another process changed the shared graph: what this store holds in memory may be stale
              eb.<Object>consumer(Addresses.GRAPH_CHANGED, m -> {
                if (!(m.body() instanceof JsonObject j) || !instance.equals(j.getString("instance"))) {
                  store.forgetCached();
                }
              }).completion(),
              eb.<JsonObject>consumer(Addresses.GRAPH_ENTITY_GET, m -> reply(m, b -> store.node(id(b, "id"))
                  .map(n -> n.orElseThrow(() -> notFound("entity", b.getString("id"))).toJson()))).completion(),
              eb.<JsonObject>consumer(Addresses.GRAPH_RELATION_GET, m -> reply(m, b -> store.edge(relationId(b), 50)
                  .map(e -> e.orElseThrow(() -> notFound("relation", b.getString("id"))).toJson()))).completion(),
              eb.<JsonObject>consumer(Addresses.GRAPH_NEIGHBOURHOOD, m -> reply(m, b -> {
                String id = id(b, "id");
                return store.node(id).compose(n -> {
                  n.orElseThrow(() -> notFound("entity", id));
                  return q.neighbourhood(id, bounds(b, "depth", 2, GraphQueries.MAX_DEPTH)).map(Subgraph::toJson);
                });
              })).completion(),
              eb.<JsonObject>consumer(Addresses.GRAPH_PATH, m -> reply(m, b -> q.path(id(b, "from"), id(b, "to"),
                  bounds(b, "maxDepth", 4, GraphQueries.MAX_PATH_DEPTH)))).completion(),
              eb.<JsonObject>consumer(Addresses.GRAPH_SEARCH, m -> reply(m, b -> {
                String query = text(b, "q", 200);
                return store.search(query, b.getString("type"), intIn(b, "limit", 20, 1, 100)).map(list -> {
                  JsonArray out = new JsonArray();
                  list.forEach(n -> out.add(n.toJson()));
                  return new JsonObject().put("query", query).put("entities", out);
                });
              })).completion(),
              eb.<JsonObject>consumer(Addresses.GRAPH_CONNECTIONS, m -> reply(m, b ->
                  analysis.connections(id(b, "id"), asOf(b)))).completion(),
              eb.<JsonObject>consumer(Addresses.GRAPH_IDENTIFIER_SHARING, m -> reply(m, b ->
                  new IdentifierSharing(store, conf.fanout()).of(id(b, "id"), asOf(b)))).completion(),
              eb.<JsonObject>consumer(Addresses.GRAPH_RISK_PROPAGATION, m -> reply(m, b ->
                  analysis.riskPropagation(id(b, "id"), asOf(b)))).completion(),
              eb.<JsonObject>consumer(Addresses.GRAPH_RINGS, m -> reply(m, b ->
                  analysis.rings(id(b, "id"), asOf(b), intIn(b, "maxLength", 8, 3, 12)))).completion(),
              eb.<JsonObject>consumer(Addresses.GRAPH_COMMUNITY, m -> reply(m, b ->
                  analysis.community(id(b, "id"), asOf(b)))).completion(),
              eb.<JsonObject>consumer(Addresses.GRAPH_INVESTIGATE, m -> reply(m, b -> analysis.investigate(
                  id(b, "entity"), intIn(b, "maxHops", 3, 1, GraphQueries.MAX_DEPTH),
                  weight(b, conf.investigateMinWeight()), asOf(b)))).completion(),
              eb.<JsonObject>consumer(Addresses.GRAPH_EMAIL_RISK, m -> reply(m, b -> {
                requireOne(b, "email", "sellerId");
                return identifiers.email(b, asOf(b));
              })).completion(),
              eb.<JsonObject>consumer(Addresses.GRAPH_IP_RISK, m -> reply(m, b -> {
                requireOne(b, "ip", "sellerId");
                return identifiers.ip(b, asOf(b));
              })).completion(),
              eb.<JsonObject>consumer(Addresses.GRAPH_SIMILAR_CASES, m -> reply(m, b ->
                  new SimilarCases(q, conf.fanout(), conf.nodeLimit()).find(id(b, "sellerId"), asOf(b),
                      intIn(b, "limit", 5, 1, 20)))).completion()));
        });
  }

  // ---- building ----------------------------------------------------------------------------------------------------

  /** Applies one change after the previous one committed (changes to one entity never race). */
  private Future<GraphStore.Applied> enqueue(Facts facts) {
    Future<GraphStore.Applied> next = tail.transform(ignored -> store.apply(facts));
    tail = next;
    return next.onSuccess(a -> vertx.eventBus().publish(Addresses.GRAPH_CHANGED, a.toJson()
        .put("origins", new JsonArray(List.copyOf(facts.origins()))).put("instance", instance)));
  }

  private Future<JsonObject> applyRecords(JsonObject body) {
    JsonArray records = body.getJsonArray("records", new JsonArray());
    if (records.size() > MAX_RECORDS) {
      throw ApiException.tooLarge("at most " + MAX_RECORDS + " records per graph change");
    }
    String change = body.getString("change", "upsert");
    // normalization (libphonenumber, ipaddress, trigram names) of a batch of up to MAX_RECORDS is CPU work: a worker's,
    // ordered so that batches reach the store in the order they came
    return vertx.executeBlocking(() -> {
      Facts facts = new Facts();
      for (int i = 0; i < records.size(); i++) {
        JsonObject r = records.getJsonObject(i);
        if ("delete".equals(change)) {
          facts.replacing(r.getString("id"));
        } else {
          recordFacts.add(r, facts);
        }
      }
      return facts;
    }, true).compose(this::enqueue).map(GraphStore.Applied::toJson);
  }

  private void knowledgeChanged(Message<JsonObject> msg) {
    JsonObject b = msg.body();
    String docId = b == null ? null : b.getString("documentId");
    if (docId == null) {
      return;
    }
    Future<Facts> facts = "delete".equals(b.getString("change"))
        ? Future.succeededFuture(new Facts().replacing(docId))
        : vertx.eventBus().<JsonObject>request(Addresses.DOCUMENT_GET, new JsonObject().put("id", docId),
            new DeliveryOptions().setSendTimeout(conf.busTimeoutMs()))
            .map(reply -> documentFacts.of(reply.body()));
    facts.compose(this::enqueue).onFailure(err -> LOG.warning("graph: document " + docId + " not applied: "
        + err.getMessage()));
  }

  // ---- request fields ----------------------------------------------------------------------------------------------

  private static void reply(Message<JsonObject> msg, Function<JsonObject, Future<JsonObject>> action) {
    Future<JsonObject> result;
    try {
      result = action.apply(msg.body() == null ? new JsonObject() : msg.body());
    } catch (IllegalArgumentException e) {
      result = Future.failedFuture(ApiException.badRequest("invalid_parameter", e.getMessage()));
    } catch (RuntimeException e) {
      result = Future.failedFuture(e);
    }
    result.recover(err -> Future.failedFuture(err instanceof IllegalArgumentException
            ? ApiException.badRequest("invalid_parameter", err.getMessage()) : err))
        .onSuccess(msg::reply).onFailure(err -> BusFailures.fail(msg, err));
  }

  static ApiException notFound(String what, String id) {
    return ApiException.notFound("not_found", "no " + what + " '" + id + "'");
  }

  static String id(JsonObject b, String field) {
    return text(b, field, MAX_ID);
  }

  static String text(JsonObject b, String field, int max) {
    Object v = b.getValue(field);
    if (!(v instanceof String s) || s.isBlank()) {
      throw ApiException.badRequest("missing_field", "field '" + field + "' is required (a string)");
    }
    if (s.length() > max) {
      throw ApiException.badRequest("invalid_parameter", "field '" + field + "' is longer than " + max + " characters");
    }
    return s.strip();
  }

  private static String relationId(JsonObject b) {
    String id = id(b, "id");
    return id.startsWith("rel:") ? id.substring(4) : id;
  }

  static int intIn(JsonObject b, String field, int def, int min, int max) {
    Object v = b.getValue(field);
    if (v == null) {
      return def;
    }
    if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue()) || n.intValue() < min
        || n.intValue() > max) {
      throw ApiException.badRequest("invalid_parameter", "field '" + field + "' must be an integer from " + min
          + " to " + max);
    }
    return n.intValue();
  }

  static double weight(JsonObject b, double def) {
    Object v = b.getValue("minWeight");
    if (v == null) {
      return def;
    }
    if (!(v instanceof Number n) || n.doubleValue() < 0 || n.doubleValue() > 1) {
      throw ApiException.badRequest("invalid_parameter", "field 'minWeight' must be a number from 0 to 1");
    }
    return n.doubleValue();
  }

  static Long asOf(JsonObject b) {
    Object v = b.getValue("asOf");
    if (v == null) {
      return null;
    }
    try {
      return Times.parse(String.valueOf(v));
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("invalid_parameter", "field 'asOf' must be an ISO-8601 time with offset");
    }
  }

  private GraphQueries.Bounds bounds(JsonObject b, String depthField, int defDepth, int maxDepth) {
    return new GraphQueries.Bounds(intIn(b, depthField, defDepth, depthField.equals("maxDepth") ? 1 : 0, maxDepth),
        intIn(b, "fanout", conf.fanout(), 1, 10_000), intIn(b, "limit", conf.nodeLimit(), 1, conf.nodeLimit()),
        weight(b, 0.0), asOf(b));
  }

  private static void requireOne(JsonObject b, String a, String c) {
    if (b.getValue(a) == null && b.getValue(c) == null) {
      throw ApiException.badRequest("missing_field", "one of '" + a + "' or '" + c + "' is required");
    }
    for (String f : new String[] {a, c}) {
      if (b.getValue(f) != null) {
        text(b, f, MAX_ID);
      }
    }
  }
}
