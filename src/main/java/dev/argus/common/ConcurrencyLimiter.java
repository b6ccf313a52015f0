package dev.argus.common;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * At most {@code maxConcurrent} holders at once; up to {@code maxQueued} more wait in FIFO order, beyond that an
 * acquire fails at once with the caller's refusal. Shared by callers on any context (thread-safe): a waiter is woken
 * on its own context, and a freed slot goes straight to the oldest waiter. Used for provider calls
 * ({@code ProviderTransport}) and for chat streams ({@code agent.maxConcurrentChats}, {@code ChatRoutes}).
 */
public final class ConcurrencyLimiter {

  private record Waiter(Context context, Promise<Void> promise) {
  }

  private final int maxConcurrent;
  private final int maxQueued;
  private final Supplier<? extends Throwable> refusal;
  private final ArrayDeque<Waiter> queue = new ArrayDeque<>();
  private int active;

  /** {@code refusal} makes the failure of an acquire that finds the queue full. */
  public ConcurrencyLimiter(int maxConcurrent, int maxQueued, Supplier<? extends Throwable> refusal) {
    this.maxConcurrent = maxConcurrent;
    this.maxQueued = maxQueued;
    this.refusal = refusal;
  }

  /** Completes (on {@code context}) when a slot is free; the caller must {@link #release()} it exactly once. */
  public Future<Void> acquire(Context context) {
    Promise<Void> promise;
    synchronized (this) {
      if (active < maxConcurrent) {
        active++;
        return Future.succeededFuture();
      }
      if (queue.size() >= maxQueued) {
        return Future.failedFuture(refusal.get());
      }
      promise = Promise.promise();
      queue.add(new Waiter(context, promise));
    }
    return promise.future();
  }

  /** As {@link #acquire}, the slot handed over as its release, which frees it on the first call only. */
  public Future<Runnable> acquireReleasable(Context context) {
    return acquire(context).map(v -> {
      AtomicBoolean released = new AtomicBoolean();
      return () -> {
        if (released.compareAndSet(false, true)) {
          release();
        }
      };
    });
  }

  /** Frees a slot, handing it straight to the oldest waiter if any. */
  public void release() {
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

  public synchronized int active() {
    return active;
  }

  public synchronized int queued() {
    return queue.size();
  }
}
