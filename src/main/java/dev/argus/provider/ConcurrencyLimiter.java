package dev.argus.provider;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.util.ArrayDeque;

/**
 * At most {@code maxConcurrent} requests in flight; up to {@code maxQueued} more wait in FIFO order, beyond that
 * a request is refused at once. Shared by callers on any context: a waiter is woken on its own context.
 */
final class ConcurrencyLimiter {

  private record Waiter(Context context, Promise<Void> promise) {
  }

  private final String name;
  private final int maxConcurrent;
  private final int maxQueued;
  private final ArrayDeque<Waiter> queue = new ArrayDeque<>();
  private int active;

  ConcurrencyLimiter(String name, int maxConcurrent, int maxQueued) {
    this.name = name;
    this.maxConcurrent = maxConcurrent;
    this.maxQueued = maxQueued;
  }

  /** Completes (on {@code context}) when a slot is free; the caller must {@link #release()} it exactly once. */
  Future<Void> acquire(Context context) {
    Promise<Void> promise;
    synchronized (this) {
      if (active < maxConcurrent) {
        active++;
        return Future.succeededFuture();
      }
      if (queue.size() >= maxQueued) {
        // Not a provider failure: the breaker ignores it.
        return Future.failedFuture(new ProviderException(ProviderException.Reason.QUEUE_FULL, name
            + ": too many concurrent requests (" + maxConcurrent + " running, " + maxQueued + " queued)", 0, -1, null, null));
      }
      promise = Promise.promise();
      queue.add(new Waiter(context, promise));
    }
    return promise.future();
  }

  /** Frees a slot, handing it straight to the oldest waiter if any. */
  void release() {
    Waiter next;
    synchronized (this) {
      next = queue.poll();
      if (next == null) {
        active--;
        return;
      }
    }
    next.context().runOnContext(v -> next.promise().complete());
  }

  synchronized int active() {
    return active;
  }

  synchronized int queued() {
    return queue.size();
  }
}
