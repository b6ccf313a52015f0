package dev.argus.retrieval;

import dev.argus.config.ArgusConfig;
import dev.argus.config.ConfigLoader;
import dev.argus.config.RetrievalConf;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

class SearchCacheTest {

  private static final RetrievalConf CONF =
      ArgusConfig.from(ConfigLoader.load(ArgusConfig.DEFAULT_FILE, Map.of())).retrieval();
  private final AtomicLong now = new AtomicLong(1_000_000_000L);

  private static SearchResponse response(String query) {
    return new SearchResponse(query, query, List.of(), new Timings(0, 0, 0, 0, 0, 0, 0, 0),
        new AppliedFilters(null, List.of(), List.of(), false), false);
  }

  private static SearchRequest request(String json) {
    return SearchRequest.fromJson(new JsonObject(json), CONF, 2000);
  }

  @Test
  void keyNormalizesWhitespaceButKeepsCaseAndOptions() {
    String a = SearchCache.key(request("{\"query\": \"  account \\n takeover \"}"));
    assertEquals(a, SearchCache.key(request("{\"query\": \"account takeover\"}")));
    assertNotEquals(a, SearchCache.key(request("{\"query\": \"Account takeover\"}")));
    assertNotEquals(a, SearchCache.key(request("{\"query\": \"account takeover\", \"topK\": 3}")));
    assertNotEquals(a, SearchCache.key(request("{\"query\": \"account takeover\", \"filters\": {\"k\": 1}}")));
    assertNotEquals(a, SearchCache.key(request("{\"query\": \"account takeover\", \"namespace\": \"x\"}")));
    assertNotEquals(a, SearchCache.key(request("{\"query\": \"account takeover\", \"mmr\": true}")));
  }

  @Test
  void expiresAfterTtl() {
    SearchCache cache = new SearchCache(1000, 10, now::get);
    SearchResponse r = response("q");
    cache.put("k", null, r, cache.generation());
    now.addAndGet(999_000_000L);
    assertSame(r, cache.get("k"));
    now.addAndGet(1_000_000L);
    assertNull(cache.get("k"));
    assertEquals(0, cache.size());
  }

  @Test
  void boundedLeastRecentlyUsed() {
    SearchCache cache = new SearchCache(60_000, 2, now::get);
    cache.put("a", null, response("a"), 0);
    cache.put("b", null, response("b"), 0);
    assertNotNull(cache.get("a"));
    cache.put("c", null, response("c"), 0);
    assertEquals(2, cache.size());
    assertNull(cache.get("b"), "least recently used goes first");
    assertNotNull(cache.get("a"));
    assertNotNull(cache.get("c"));
  }

  @Test
  void invalidationByNamespace() {
    SearchCache cache = new SearchCache(60_000, 10, now::get);
    cache.put("in-a", "a", response("1"), 0);
    cache.put("in-b", "b", response("2"), 0);
    cache.put("all", null, response("3"), 0);
    cache.invalidate("a");
    assertNull(cache.get("in-a"));
    assertNull(cache.get("all"), "an unrestricted search may include namespace a");
    assertNotNull(cache.get("in-b"));
    cache.invalidate(null);
    assertNull(cache.get("in-b"), "unknown namespace: everything goes");
  }

  @Test
  void searchesStartedBeforeAnInvalidationAreNotStored() {
    SearchCache cache = new SearchCache(60_000, 10, now::get);
    long generation = cache.generation();
    cache.invalidate("a");
    cache.put("k", "b", response("q"), generation);
    assertNull(cache.get("k"));
  }

  @Test
  void zeroTtlOrSizeDisables() {
    SearchCache off = new SearchCache(0, 10, now::get);
    off.put("k", null, response("q"), off.generation());
    assertNull(off.get("k"));
    SearchCache none = new SearchCache(1000, 0, now::get);
    none.put("k", null, response("q"), none.generation());
    assertNull(none.get("k"));
  }
}
