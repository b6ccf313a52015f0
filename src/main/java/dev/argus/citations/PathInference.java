package dev.argus.citations;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/**
 * Reads a graph path as an inference under {@link CitationRules}, purely. A path of one edge is the relation itself
 * (depth 0, confidence 1.0 when its type supports the claim). A longer path must be a chain of links
 * account–identifier–account, each covered by a rule (same device ⇒ LINKED_ACCOUNTS, ...), optionally ending with
 * one stored edge from the last account to an identifier; chains of several links are transitive. Depth is the
 * number of edges of the path; the relation's confidence is the weakest edge weight on it.
 */
public final class PathInference {

  /** The reading of one path: supported or not (with the reason), relation, depth, confidence, trace. */
  public record Outcome(boolean supported, String relation, int depth, double relationConfidence,
                        List<ReasoningStep> steps, String reason) {

    static Outcome unsupported(int depth, List<ReasoningStep> steps, String reason) {
      List<ReasoningStep> all = new ArrayList<>(steps);
      all.add(ReasoningStep.of("failure", reason));
      return new Outcome(false, null, depth, 0, all, reason);
    }
  }

  private PathInference() {
  }

  /**
   * @param typeOf the entity type of every node of the path
   * @param claimed the claimed relation, or null when any relation between the two suffices
   */
  public static Outcome explain(CitationRules rules, GraphPath path, Map<String, String> typeOf, String claimed) {
    int k = path.length();
    if (k == 0) {
      return Outcome.unsupported(0, List.of(), "a claim needs two different entities");
    }
    if (k > rules.confidence().maxDepth()) {
      return Outcome.unsupported(k, List.of(), "path of " + k + " edges is deeper than the limit "
          + rules.confidence().maxDepth());
    }
    if (k == 1) {
      GraphEdge e = path.edges().get(0);
      ReasoningStep stored = ReasoningStep.of("relation", "stored relation " + e.id() + ": " + e.from() + " —"
          + e.type() + "→ " + e.to(), e.id());
      if (!rules.supports(e.type(), claimed)) {
        return Outcome.unsupported(1, List.of(stored), "stored relation " + e.type() + " does not support the claimed "
            + claimed);
      }
      return new Outcome(true, e.type(), 0, 1.0, List.of(stored), null);
    }
    List<String> nodes = new ArrayList<>(path.nodes());
    List<GraphEdge> edges = new ArrayList<>(path.edges());
    if (!rules.isAccount(type(typeOf, nodes.get(0))) && rules.isAccount(type(typeOf, nodes.get(k)))) {
      Collections.reverse(nodes);
      Collections.reverse(edges);
    }
    List<ReasoningStep> steps = new ArrayList<>();
    List<String> links = new ArrayList<>();
    boolean terminal = false;
    double weakest = 1.0;
    int i = 0;
    while (i < k) {
      String a = nodes.get(i);
      String ta = type(typeOf, a);
      InferenceRule rule = i + 2 <= k ? rules.rulesByVia().get(type(typeOf, nodes.get(i + 1))) : null;
      if (rules.isAccount(ta) && rule != null && rules.isAccount(type(typeOf, nodes.get(i + 2)))) {
        String via = nodes.get(i + 1);
        String b = nodes.get(i + 2);
        GraphEdge e1 = edges.get(i);
        GraphEdge e2 = edges.get(i + 1);
        weakest = Math.min(weakest, Math.min(e1.weight(), e2.weight()));
        steps.add(new ReasoningStep("rule", a + " and " + b + " share " + rule.via() + " " + via + " (" + e1.id()
            + ", " + e2.id() + ") ⇒ " + rule.implies(), rule.name(), List.of(a, via, b, e1.id(), e2.id())));
        links.add(rule.implies());
        i += 2;
      } else if (rules.isAccount(ta) && i + 1 == k && !links.isEmpty()) {
        GraphEdge e = edges.get(i);
        weakest = Math.min(weakest, e.weight());
        steps.add(ReasoningStep.of("terminal", a + " —" + e.type() + "→ " + nodes.get(i + 1) + " (stored relation "
            + e.id() + ")", a, nodes.get(i + 1), e.id()));
        terminal = true;
        i += 1;
      } else {
        String b = nodes.get(i + 1);
        return Outcome.unsupported(k, steps, "no inference rule covers " + a + " (" + ta + ") —"
            + edges.get(i).type() + "→ " + b + " (" + type(typeOf, b) + ")");
      }
    }
    String relation;
    if (terminal) {
      relation = rules.terminalRelation();
    } else if (new HashSet<>(links).size() == 1) {
      relation = links.get(0);
    } else {
      relation = rules.transitiveRelation();
    }
    if (links.size() > 1 || terminal) {
      steps.add(ReasoningStep.of("transitive", nodes.get(0) + " " + String.join(" ∘ ", links)
          + (terminal ? " ∘ uses" : "") + " " + nodes.get(k) + " ⇒ " + relation + " at depth " + k,
          nodes.get(0), nodes.get(k)));
    }
    if (!rules.supports(relation, claimed)) {
      return Outcome.unsupported(k, steps, "inferred " + relation + " does not support the claimed " + claimed);
    }
    return new Outcome(true, relation, k, Confidence.round(weakest), steps, null);
  }

  private static String type(Map<String, String> typeOf, String id) {
    return typeOf.getOrDefault(id, "unknown");
  }
}
