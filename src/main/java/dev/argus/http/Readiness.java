package dev.argus.http;

import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What must finish before Argus answers ready, beyond what completes before the HTTP server listens (migrations,
 * model load): named start-up tasks, such as loading the sample knowledge base. A task counts as finished when its
 * future completes, whether it succeeded or failed (a failed sample load is logged, the service still works).
 * Thread-safe.
 */
public final class Readiness {

  private final Map<String, Boolean> tasks = new LinkedHashMap<>();

  /** Waits for {@code task} before being ready. */
  public synchronized Readiness await(String name, Future<?> task) {
    tasks.put(name, false);
    task.onComplete(ar -> finished(name));
    return this;
  }

  private synchronized void finished(String name) {
    tasks.put(name, true);
  }

  public synchronized boolean ready() {
    return !tasks.containsValue(false);
  }

  /** The tasks still running, in the order they were registered. */
  public synchronized List<String> pending() {
    List<String> out = new ArrayList<>();
    tasks.forEach((name, done) -> {
      if (!done) {
        out.add(name);
      }
    });
    return out;
  }
}
