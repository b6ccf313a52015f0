package dev.argus.graph;

import java.util.HashMap;
import java.util.Map;

/**
 * What this process knows a committed node or edge row already covers: a lower bound of its stored risk (node) or
 * weight (edge) and an inner bound of its first/last seen. A build that merges a row the stored one already covers
 * changes nothing, so {@link SqlGraphStore#apply} leaves such rows out of its upserts (loading transactions touches
 * the same buyers, cards, devices and edges again and again; each skipped row is an index probe and a row lock the
 * database does not do).
 *
 * <p>Sound as long as stored values only grow between the moments this learns them: an apply records a row's span
 * after its commit; a row whose sources were removed (its values may shrink, or it may be gone) is forgotten in the
 * same apply, before anything is skipped; another process's writes clear it all ({@link #clear}). Bounded: a map
 * that reaches its bound starts again empty (cheaper than keeping a recency order on every look-up); thread-safe.
 */
final class WrittenSpans {

  private record Span(double value, long first, long last) {

    boolean covers(double v, long f, long l) {
      return value >= v && first <= f && last >= l;
    }

    Span with(double v, long f, long l) {
      return new Span(Math.max(value, v), Math.min(first, f), Math.max(last, l));
    }
  }

  private final Map<String, Span> nodes = new HashMap<>();
  private final Map<String, Span> edges = new HashMap<>();
  private final int maxNodes;
  private final int maxEdges;

  WrittenSpans(int maxNodes, int maxEdges) {
    this.maxNodes = maxNodes;
    this.maxEdges = maxEdges;
  }

  synchronized boolean nodeCovers(String id, double risk, long first, long last) {
    Span s = nodes.get(id);
    return s != null && s.covers(risk, first, last);
  }

  synchronized boolean edgeCovers(String id, double weight, long first, long last) {
    Span s = edges.get(id);
    return s != null && s.covers(weight, first, last);
  }

  /** After a commit that merged this node row (the stored row now covers it and what it covered before). */
  synchronized void nodeWritten(String id, double risk, long first, long last) {
    if (nodes.size() >= maxNodes) {
      nodes.clear();
      if (maxNodes == 0) {
        return;
      }
    }
    nodes.merge(id, new Span(risk, first, last), (a, b) -> a.with(b.value, b.first, b.last));
  }

  synchronized void edgeWritten(String id, double weight, long first, long last) {
    if (edges.size() >= maxEdges) {
      edges.clear();
      if (maxEdges == 0) {
        return;
      }
    }
    edges.merge(id, new Span(weight, first, last), (a, b) -> a.with(b.value, b.first, b.last));
  }

  synchronized void forget(Iterable<String> nodeIds, Iterable<String> edgeIds) {
    nodeIds.forEach(nodes::remove);
    edgeIds.forEach(edges::remove);
  }

  synchronized void clear() {
    nodes.clear();
    edges.clear();
  }
}
