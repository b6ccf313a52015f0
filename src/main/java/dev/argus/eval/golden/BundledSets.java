package dev.argus.eval.golden;

import dev.argus.eval.store.EvalStore;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The golden sets shipped on the classpath ({@code golden/*.json}; today {@code sample-kb}, built from the bundled
 * sample knowledge base), stored at start when no set of that name exists (an edited set is never overwritten).
 * Reading a resource blocks: called from the evaluation worker verticle.
 */
public final class BundledSets {

  static final List<String> RESOURCES = List.of("golden/sample-kb.json");

  private BundledSets() {
  }

  public static GoldenSet read(String resource) {
    try (InputStream in = BundledSets.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("no bundled golden set at " + resource);
      }
      return GoldenSet.fromJson(new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8)), 10_000);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Stores every bundled set that is not stored yet; completes with how many were added. */
  public static Future<Integer> seed(EvalStore store, long now) {
    Future<Integer> chain = Future.succeededFuture(0);
    for (String r : RESOURCES) {
      GoldenSet set = read(r);
      chain = chain.compose(n -> store.findSet(set.name()).compose(found -> found.isPresent() ? Future.succeededFuture(n)
          : store.saveSet(set.name(), set.toJson(), now).map(v -> n + 1)));
    }
    return chain;
  }
}
