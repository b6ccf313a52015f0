package dev.argus.graph;

import io.vertx.core.Future;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Stable ids for rings and communities across recomputations: a freshly computed group takes the id of the stored
 * group of its kind with the largest membership overlap (Jaccard of the member sets, at least {@link #MATCH}); with
 * none, it gets a new id ({@code ring-}/{@code community-} + a hash of its first members). The stored group then gets
 * the new members, risk and last-seen; its first-seen and creation time stay.
 */
public final class GroupTracker {

  public static final double MATCH = 0.5;

  private final GraphStore store;

  public GroupTracker(GraphStore store) {
    this.store = store;
  }

  public Future<GraphStore.Group> track(String kind, Collection<String> members, double risk, long firstSeen,
                                        long lastSeen) {
    List<String> sorted = members.stream().distinct().sorted().toList();
    return store.groupsTouching(kind, sorted).compose(candidates -> {
      GraphStore.Group best = null;
      double bestScore = 0;
      for (GraphStore.Group g : candidates) {
        double s = jaccard(g.members(), sorted);
        if (s > bestScore || (s == bestScore && best != null && g.id().compareTo(best.id()) < 0)) {
          best = g;
          bestScore = s;
        }
      }
      long now = System.currentTimeMillis();
      GraphStore.Group out;
      if (best != null && bestScore >= MATCH) {
        if (best.members().equals(sorted) && best.risk() == risk && best.lastSeen() == lastSeen) {
          return Future.succeededFuture(best);
        }
        out = new GraphStore.Group(best.id(), kind, sorted, risk, Math.min(best.firstSeen(), firstSeen), lastSeen,
            best.createdAt(), now);
      } else {
        out = new GraphStore.Group(kind + "-" + EntityIds.edge(kind, String.join(",", sorted), "").substring(0, 12),
            kind, sorted, risk, firstSeen, lastSeen, now, now);
      }
      GraphStore.Group saved = out;
      return store.saveGroup(out).map(v -> saved);
    });
  }

  static double jaccard(Collection<String> a, Collection<String> b) {
    Set<String> x = new HashSet<>(a);
    Set<String> y = new HashSet<>(b);
    Set<String> common = new HashSet<>(x);
    common.retainAll(y);
    int union = x.size() + y.size() - common.size();
    return union == 0 ? 0 : (double) common.size() / union;
  }
}
