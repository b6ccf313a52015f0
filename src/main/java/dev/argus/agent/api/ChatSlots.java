package dev.argus.agent.api;

import dev.argus.common.ApiException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Admission for chat streams ({@code POST /api/chat}): at most {@code agent.maxConcurrentChats} run at once, up to
 * {@code agent.maxQueuedChats} more wait in arrival order, beyond that 503 {@code overloaded}. Without it every
 * request started its run at once: with 200 streams on 2 cores each run got 1/100 of a core, so every run took 200×
 * its work before its first token, the run start's reply exceeded {@code http.sendTimeoutMs} (504 while the run went
 * on), the client asked again, and the runs in flight grew past the number of clients (found by scripts/prove-load).
 * A queued chat's response starts when its slot comes (its time to first token includes the wait); a client that went
 * away while queued gives its slot back at once. Shared by the HTTP verticle's instances (thread-safe); waiters are
 * resumed on their own context.
 */
final class ChatSlots {

  private final int maxConcurrent;
  private final int maxQueued;
  private final ArrayDeque<Waiter> waiting = new ArrayDeque<>();
  private int running;

  private record Waiter(Context context, Promise<Runnable> promise) {
  }

  ChatSlots(int maxConcurrent, int maxQueued) {
    this.maxConcurrent = maxConcurrent;
    this.maxQueued = maxQueued;
  }

  /** A slot (its release, idempotent) now or once one frees; failed 503 {@code overloaded} when the queue is full. */
  Future<Runnable> acquire(Vertx vertx) {
    Promise<Runnable> promise = Promise.promise();
    synchronized (this) {
      if (running < maxConcurrent) {
        running++;
      } else if (waiting.size() < maxQueued) {
        waiting.add(new Waiter(vertx.getOrCreateContext(), promise));
        return promise.future();
      } else {
        return Future.failedFuture(ApiException.unavailable("overloaded", "too many chats: " + maxConcurrent
            + " running and " + maxQueued + " waiting; try again shortly"));
      }
    }
    promise.complete(release());
    return promise.future();
  }

  synchronized int running() {
    return running;
  }

  synchronized int queued() {
    return waiting.size();
  }

  private Runnable release() {
    AtomicBoolean released = new AtomicBoolean();
    return () -> {
      if (released.compareAndSet(false, true)) {
        handOn();
      }
    };
  }

  /** A slot came free: to the longest waiter (it keeps the slot), or back to the pool. */
  private void handOn() {
    Waiter next;
    synchronized (this) {
      next = waiting.poll();
      if (next == null) {
        running--;
        return;
      }
    }
    Runnable release = release();
    next.context().runOnContext(v -> next.promise().complete(release));
  }
}
