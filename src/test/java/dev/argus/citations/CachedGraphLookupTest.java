package dev.argus.citations;

import org.junit.jupiter.api.Test;

import static dev.argus.testing.Await.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CachedGraphLookupTest {

  @Test
  void answersAreKeptUntilTheGraphChanges() {
    HandBuiltGraph graph = new HandBuiltGraph().entity("S-1", "seller").entity("device:d1", "device")
        .edge("USES_DEVICE", "S-1", "device:d1", 0.9);
    CachedGraphLookup cache = new CachedGraphLookup(graph, 100);
    assertTrue(await(cache.entity("S-1")).isPresent());
    assertTrue(await(cache.entity("S-1")).isPresent());
    assertTrue(await(cache.path("S-1", "device:d1", 5, null, 0)).isPresent());
    assertTrue(await(cache.path("S-1", "device:d1", 5, null, 0)).isPresent());
    assertEquals(2, graph.calls.get(), "one graph request per distinct question");
    assertEquals(2, cache.hits());
    // the graph changes: S-1 is gone
    graph.entities.remove("S-1");
    assertTrue(await(cache.entity("S-1")).isPresent(), "stale until the change is announced");
    cache.invalidate();
    assertTrue(await(cache.entity("S-1")).isEmpty());
    assertEquals(3, graph.calls.get());
    assertEquals(1, cache.version());
  }

  @Test
  void theOldestAnswersLeaveFirst() {
    HandBuiltGraph graph = new HandBuiltGraph().entity("a", "seller").entity("b", "seller").entity("c", "seller");
    CachedGraphLookup cache = new CachedGraphLookup(graph, 2);
    await(cache.entity("a"));
    await(cache.entity("b"));
    await(cache.entity("a"));
    await(cache.entity("c"));
    assertEquals(2, cache.size());
    int before = graph.calls.get();
    await(cache.entity("a"));
    assertEquals(before, graph.calls.get(), "a was used recently and stays");
    await(cache.entity("b"));
    assertEquals(before + 1, graph.calls.get(), "b was the least recently used and left");
  }

  @Test
  void sizeZeroCachesNothing() {
    HandBuiltGraph graph = new HandBuiltGraph().entity("a", "seller");
    CachedGraphLookup cache = new CachedGraphLookup(graph, 0);
    await(cache.entity("a"));
    await(cache.entity("a"));
    assertEquals(2, graph.calls.get());
  }
}
