package dev.argus.graph;

import dev.argus.common.ApiException;
import dev.argus.http.Caller;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The graph-view pruning of {@link DocumentVisibility}: a hidden document goes with its edges and with what was
 * reachable only through it, and the remaining nodes' hops are recounted over what is left.
 */
class DocumentVisibilityTest {

  private static final Caller LIMITED = new Caller("k", "analyst", Set.of(), List.of("default", "alpha"), 0);
  private final DocumentVisibility visibility = new DocumentVisibility(null); // graph views need no look-up

  private static JsonObject node(String id, String type, String namespace, int hops) {
    JsonObject n = new JsonObject().put("id", id).put("type", type).put("hops", hops);
    return namespace == null ? n : n.put("attributes", new JsonObject().put("namespace", namespace));
  }

  private static JsonObject edge(String from, String to) {
    return new JsonObject().put("id", from + ">" + to).put("from", from).put("to", to);
  }

  /** email - doc:b (beta) - ip:1 ; email - doc:a (alpha) - phone:1 - ip:1 (ip:1 is 2 hops away, 3 without doc:b). */
  private static JsonObject view() {
    return new JsonObject().put("center", "email:x").put("truncated", false)
        .put("nodes", new JsonArray().add(node("email:x", "email", null, 0)).add(node("doc:b", "document", "beta", 1))
            .add(node("doc:a", "document", "alpha", 1)).add(node("ip:1", "ip", null, 2))
            .add(node("phone:1", "phone", null, 2)).add(node("domain:only-b", "domain", null, 2)))
        .put("edges", new JsonArray().add(edge("doc:b", "email:x")).add(edge("doc:b", "ip:1"))
            .add(edge("doc:a", "email:x")).add(edge("doc:a", "phone:1")).add(edge("phone:1", "ip:1"))
            .add(edge("doc:b", "domain:only-b")));
  }

  @Test
  void aHiddenDocumentGoesWithWhatOnlyItReached() {
    JsonObject out = visibility.subgraph(view(), LIMITED, "email:x");
    JsonObject hops = new JsonObject();
    out.getJsonArray("nodes").forEach(o -> hops.put(((JsonObject) o).getString("id"), ((JsonObject) o).getInteger("hops")));
    assertEquals(new JsonObject().put("email:x", 0).put("doc:a", 1).put("ip:1", 3).put("phone:1", 2), hops);
    assertEquals(3, out.getJsonArray("edges").size(), out.encode());
    out.getJsonArray("edges").forEach(o -> assertEquals(-1, ((JsonObject) o).getString("id").indexOf("doc:b")));
  }

  @Test
  void aDocumentWithoutANamespaceIsHiddenFromALimitedKey() {
    JsonObject v = view();
    v.getJsonArray("nodes").getJsonObject(2).remove("attributes");
    JsonObject out = visibility.subgraph(v, LIMITED, "email:x");
    assertEquals(1, out.getJsonArray("nodes").size(), out.encode());
  }

  @Test
  void aHiddenCenterIsNotFoundAndAnUnlimitedCallerGetsTheSameAnswer() {
    JsonObject v = view().put("center", "doc:b");
    ApiException e = assertThrows(ApiException.class, () -> visibility.subgraph(v, LIMITED, "doc:b"));
    assertEquals(404, e.status());
    JsonObject all = view();
    assertSame(all, visibility.subgraph(all, Caller.LOCAL, "email:x"));
    assertEquals(6, all.getJsonArray("nodes").size());
  }
}
