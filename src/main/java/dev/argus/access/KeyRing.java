package dev.argus.access;

import io.vertx.core.Future;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The active keys in memory, so that checking a key costs no database round trip and never blocks a request: a
 * snapshot of {@link KeyStore#active()}, replaced on {@link #reload()} (after every change made through the API,
 * and every {@code auth.keyRefreshMs} for changes made by the command line). A presented key is found by its id and
 * its secret checked against the stored hash in constant time.
 */
public final class KeyRing {

  private final KeyStore store;
  private volatile Map<String, KeyStore.Stored> byId = Map.of();

  public KeyRing(KeyStore store) {
    this.store = store;
  }

  public Future<Void> reload() {
    return store.active().map(keys -> {
      byId = keys.stream().collect(Collectors.toUnmodifiableMap(s -> s.key().id(), Function.identity()));
      return null;
    });
  }

  /** The active key this text is, or empty (unknown id, revoked, wrong secret, not a key at all). */
  public Optional<ApiKey> match(String presented) {
    Optional<KeySecrets.Parsed> parsed = KeySecrets.parse(presented);
    if (parsed.isEmpty()) {
      return Optional.empty();
    }
    KeyStore.Stored stored = byId.get(parsed.get().id());
    if (stored == null || !KeySecrets.matches(parsed.get().secret(), stored.secretHash())) {
      return Optional.empty();
    }
    return Optional.of(stored.key());
  }

  public int size() {
    return byId.size();
  }

  List<ApiKey> keys() {
    return byId.values().stream().map(KeyStore.Stored::key).toList();
  }
}
