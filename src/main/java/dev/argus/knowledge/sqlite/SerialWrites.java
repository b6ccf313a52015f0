package dev.argus.knowledge.sqlite;

import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.util.function.Supplier;

/**
 * Runs asynchronous write tasks one after the other. SQLite has a single writer; serializing this process's
 * writers avoids busy/stale-snapshot failures between concurrent transactions, makes "read hash, then write"
 * race-free (two concurrent upserts of one document end with one copy), and keeps in-memory index updates in
 * commit order. Never blocks a thread: the queue is a chain of futures.
 */
final class SerialWrites {

  private Future<?> tail = Future.succeededFuture();

  <T> Future<T> submit(Supplier<Future<T>> task) {
    Promise<T> done = Promise.promise();
    Future<?> previous;
    synchronized (this) {
      previous = tail;
      tail = done.future();
    }
    previous.onComplete(ignored -> {
      try {
        task.get().onComplete(done);
      } catch (RuntimeException e) {
        done.fail(e);
      }
    });
    return done.future();
  }
}
