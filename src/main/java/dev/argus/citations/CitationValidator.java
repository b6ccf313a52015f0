package dev.argus.citations;

import dev.argus.bus.BusFailures;
import dev.argus.common.ApiException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/**
 * Validates a decision's citations against the graph, all of them in parallel, each within {@code timeoutMs}:
 * <ul>
 *   <li>{@code [source:tool:i]} — evidence item {@code i} of {@code tool} among the supplied evidence: base 0.9 when
 *   it succeeded with findings, 0.1 when it succeeded with nothing found, 0.3 when it failed;</li>
 *   <li>{@code [entity:TYPE:ID]} — the entity exists and has that type (1.0), otherwise excluded;</li>
 *   <li>{@code [rel:ID]} — the relation exists (1.0, depth 0), otherwise the citation's claim is inferred.</li>
 * </ul>
 * A claim {@code {from, to, relation?}} is checked on the graph: both entities exist and the shortest path between
 * them is a stored relation or an inference under the rule set ({@link PathInference}). Confidence is
 * {@code min(entity, relation) × (1 − 0.1 × depth)} ({@link Confidence}).
 */
public final class CitationValidator {

  private final Vertx vertx;
  private final GraphLookup graph;
  private final CitationRules rules;
  private final long timeoutMs;

  public CitationValidator(Vertx vertx, GraphLookup graph, CitationRules rules, long timeoutMs) {
    this.vertx = vertx;
    this.graph = graph;
    this.rules = rules;
    this.timeoutMs = timeoutMs;
  }

  public CitationRules rules() {
    return rules;
  }

  /** Results in the order of the request's citations; never fails (a failing citation is excluded). */
  public Future<List<CitationResult>> validate(CitationRequest request) {
    List<Future<CitationResult>> all = new ArrayList<>();
    for (CitationRequest.Item item : request.citations()) {
      all.add(validateOne(item, request.evidence(), request.asOf()));
    }
    return Future.join(all).transform(ignored -> {
      List<CitationResult> out = new ArrayList<>();
      for (Future<CitationResult> f : all) {
        out.add(f.result());
      }
      return Future.succeededFuture(out);
    });
  }

  Future<CitationResult> validateOne(CitationRequest.Item item, Map<Integer, Evidence> evidence, String asOf) {
    String text = item.citation();
    Citation citation;
    try {
      citation = CitationParser.parse(text);
    } catch (MalformedCitationException e) {
      return Future.succeededFuture(CitationResult.excluded(text, List.of(), "malformed citation: " + e.getMessage()));
    }
    Future<CitationResult> work;
    try {
      if (citation instanceof Citation.Source s) {
        work = source(s, item.claim(), evidence, asOf);
      } else if (citation instanceof Citation.Entity e) {
        work = entity(e, item.claim(), asOf);
      } else {
        work = relation((Citation.Relation) citation, item.claim(), asOf);
      }
    } catch (RuntimeException e) {
      work = Future.failedFuture(e);
    }
    return withTimeout(work)
        .recover(err -> Future.succeededFuture(CitationResult.excluded(citation.text(), List.of(), failure(err))));
  }

  private <T> Future<T> withTimeout(Future<T> work) {
    Promise<T> promise = Promise.promise();
    long timer = vertx.setTimer(timeoutMs, id -> promise.tryFail(new TimeoutException()));
    work.onComplete(ar -> {
      vertx.cancelTimer(timer);
      if (ar.succeeded()) {
        promise.tryComplete(ar.result());
      } else {
        promise.tryFail(ar.cause());
      }
    });
    return promise.future();
  }

  private String failure(Throwable err) {
    if (err instanceof TimeoutException) {
      return "validation timed out after " + timeoutMs + " ms";
    }
    ApiException api = BusFailures.toApi(err);
    return "graph unavailable (" + api.status() + " " + api.code() + "): " + api.getMessage();
  }

  private Future<CitationResult> source(Citation.Source s, Claim claim, Map<Integer, Evidence> evidence,
                                        String asOf) {
    Evidence ev = evidence.get(s.index());
    if (ev == null) {
      return excluded(s, "no evidence item " + s.index() + " among the " + evidence.size() + " supplied");
    }
    if (!ev.tool().equals(s.tool())) {
      return excluded(s, "evidence item " + s.index() + " is from tool " + ev.tool() + ", not " + s.tool());
    }
    Confidence c = rules.confidence();
    double base = !ev.success() ? c.toolFailed() : ev.found() ? c.toolSucceeded() : c.nothingFound();
    String what = !ev.success() ? "failed" : ev.found() ? "succeeded with findings" : "succeeded but found nothing";
    ReasoningStep step = ReasoningStep.of("source", "evidence item " + s.index() + " (" + s.tool() + ") " + what
        + ": base confidence " + base);
    if (claim == null) {
      return Future.succeededFuture(result(s, base, 1.0, 0, null, List.of(step), null));
    }
    if (claim.from() == null) {
      return excluded(s, "a claim on a source citation needs 'from'");
    }
    return claim(claim, asOf).map(cc -> combine(s, base, cc, List.of(step)));
  }

  private Future<CitationResult> entity(Citation.Entity e, Claim claim, String asOf) {
    String id = EntityIds.graphId(e);
    return graph.entity(id).compose(found -> {
      if (found.isEmpty()) {
        return excluded(e, "entity " + id + " not found in the graph");
      }
      GraphEntity entity = found.get();
      if (!e.type().equals(entity.type())) {
        return excluded(e, "entity " + id + " is a " + entity.type() + ", not a " + e.type());
      }
      ReasoningStep step = ReasoningStep.of("entity", "entity " + id + " exists as a " + entity.type(), id);
      if (claim == null) {
        return Future.succeededFuture(result(e, 1.0, 1.0, 0, null, List.of(step), null));
      }
      return claim(claim.withFrom(id), asOf).map(cc -> combine(e, 1.0, cc, List.of(step)));
    });
  }

  private Future<CitationResult> relation(Citation.Relation r, Claim claim, String asOf) {
    return graph.relation(r.id()).compose(found -> {
      if (found.isPresent()) {
        GraphEdge edge = found.get();
        ReasoningStep step = ReasoningStep.of("relation", "stored relation " + edge.id() + ": " + edge.from() + " —"
            + edge.type() + "→ " + edge.to(), edge.id(), edge.from(), edge.to());
        if (claim != null && claim.from() != null && !edge.joins(claim.from(), claim.to())) {
          return excluded(r, List.of(step), "relation " + edge.id() + " does not join " + claim.from() + " and "
              + claim.to());
        }
        if (claim != null && !rules.supports(edge.type(), claim.relation())) {
          return excluded(r, List.of(step), "relation " + edge.type() + " does not support the claimed "
              + claim.relation());
        }
        return Future.succeededFuture(result(r, 1.0, 1.0, 0, edge.type(), List.of(step), null));
      }
      if (claim == null || claim.from() == null) {
        return excluded(r, "relation " + r.id() + " not found in the graph and no claim {from, to} to infer");
      }
      ReasoningStep step = ReasoningStep.of("relation", "relation " + r.id() + " is not stored; inferring "
          + claim.from() + " → " + claim.to() + " from the rules", r.id());
      return claim(claim, asOf).map(cc -> combine(r, 1.0, cc, List.of(step)));
    });
  }

  /** A claim checked on the graph: its entities' confidence and the path reading. */
  record ClaimCheck(double entityConfidence, PathInference.Outcome outcome) {
  }

  Future<ClaimCheck> claim(Claim claim, String asOf) {
    if (claim.from().equals(claim.to())) {
      return Future.succeededFuture(new ClaimCheck(0, PathInference.Outcome.unsupported(0, List.of(),
          "a claim needs two different entities")));
    }
    Future<Optional<GraphEntity>> from = graph.entity(claim.from());
    Future<Optional<GraphEntity>> to = graph.entity(claim.to());
    return Future.all(from, to).compose(v -> {
      for (Future<Optional<GraphEntity>> f : List.of(from, to)) {
        if (f.result().isEmpty()) {
          String missing = f == from ? claim.from() : claim.to();
          return Future.succeededFuture(new ClaimCheck(0, PathInference.Outcome.unsupported(0, List.of(),
              "entity " + missing + " not found in the graph")));
        }
      }
      int maxDepth = rules.confidence().maxDepth();
      GraphEntity a = from.result().get();
      GraphEntity b = to.result().get();
      return graph.path(claim.from(), claim.to(), maxDepth, asOf, 0).compose(path -> {
        if (path.isEmpty()) {
          return Future.succeededFuture(new ClaimCheck(1.0, PathInference.Outcome.unsupported(0, List.of(),
              "no path of at most " + maxDepth + " edges between " + claim.from() + " and " + claim.to())));
        }
        return explain(path.get(), a, b, claim.relation()).compose(first -> {
          double retry = rules.retryMinWeight();
          boolean lighter = path.get().edges().stream().anyMatch(e -> e.weight() < retry);
          if (first.supported() || retry <= 0 || !lighter) {
            return Future.succeededFuture(new ClaimCheck(1.0, first));
          }
          // the shortest path crossed a light edge no rule covers: ask again over the rules' heavier edges only
          return graph.path(claim.from(), claim.to(), maxDepth, asOf, retry).compose(heavy -> heavy.isEmpty()
              ? Future.succeededFuture(new ClaimCheck(1.0, first))
              : explain(heavy.get(), a, b, claim.relation()).map(second -> new ClaimCheck(1.0,
                  second.supported() ? second : first)));
        });
      });
    });
  }

  private Future<PathInference.Outcome> explain(GraphPath path, GraphEntity from, GraphEntity to, String claimed) {
    return types(path, from, to).map(types -> PathInference.explain(rules, path, types, claimed));
  }

  private Future<Map<String, String>> types(GraphPath path, GraphEntity from, GraphEntity to) {
    Map<String, String> types = new HashMap<>();
    types.put(from.id(), from.type());
    types.put(to.id(), to.type());
    List<Future<Optional<GraphEntity>>> lookups = new ArrayList<>();
    for (String node : path.nodes()) {
      if (!types.containsKey(node)) {
        lookups.add(graph.entity(node));
      }
    }
    return Future.all(lookups).map(v -> {
      for (Future<Optional<GraphEntity>> f : lookups) {
        f.result().ifPresent(e -> types.put(e.id(), e.type()));
      }
      return types;
    });
  }

  private CitationResult combine(Citation c, double base, ClaimCheck cc, List<ReasoningStep> before) {
    List<ReasoningStep> steps = new ArrayList<>(before);
    steps.addAll(cc.outcome().steps());
    if (!cc.outcome().supported()) {
      return CitationResult.excluded(c.text(), steps, cc.outcome().reason());
    }
    return result(c, Math.min(base, cc.entityConfidence()), cc.outcome().relationConfidence(), cc.outcome().depth(),
        cc.outcome().relation(), steps, null);
  }

  private CitationResult result(Citation c, double entity, double relation, int depth, String rel,
                                List<ReasoningStep> steps, String reason) {
    Confidence model = rules.confidence();
    double confidence = model.combine(entity, relation, depth);
    CitationStatus status = model.status(confidence);
    List<ReasoningStep> all = new ArrayList<>(steps);
    all.add(ReasoningStep.of("confidence", "min(" + entity + ", " + relation + ") × (1 − " + model.depthPenalty()
        + " × " + depth + ") = " + confidence + " → " + status.wire()));
    String why = reason;
    if (why == null && status == CitationStatus.FLAGGED) {
      why = "confidence " + confidence + " below " + model.validAt();
    } else if (why == null && status == CitationStatus.EXCLUDED) {
      why = "confidence " + confidence + " below " + model.excludeBelow();
    }
    return new CitationResult(c.text(), status, confidence, entity, relation, depth, rel, all, why);
  }

  private Future<CitationResult> excluded(Citation c, String reason) {
    return excluded(c, List.of(), reason);
  }

  private Future<CitationResult> excluded(Citation c, List<ReasoningStep> steps, String reason) {
    return Future.succeededFuture(CitationResult.excluded(c.text(), steps, reason));
  }
}
