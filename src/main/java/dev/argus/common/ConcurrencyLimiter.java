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
 * ({@code ProviderTransport}, {@link #acquire}/{@link #release}) and for chat streams ({@code agent.maxConcurrentChats},
 * {@code ChatRoutes}, {@link #enter}: a {@link Ticket} tells whether it waits and at which place, and gives back its
 * slot or its place in the queue, whichever it holds).
 */
public final class ConcurrencyLimiter {

  private record Waiter(Context context, Promise<Void> promise) {
  }

  /**
   * One entry: granted at once, refused at once, or waiting at {@link #position()} in the queue. {@link #leave()}
   * frees whatever it holds, once.
   */
  public final class Ticket {

    private final Waiter waiter;
    private final int position;
    private final Future<Void> granted;
    private final AtomicBoolean left = new AtomicBoolean();

    private Ticket(Waiter waiter, int position, Future<Void> granted) {
      this.waiter = waiter;
      this.position = position;
      this.granted = granted;
    }

    /** Completes (on the entry's context) when the slot is this ticket's; fails at once when refused. */
    public Future<Void> granted() {
      return granted;
    }

    /** Its place in the queue when it entered (1 = the next to be granted); 0 when it was granted or refused at once. */
    public int position() {
      return position;
    }

    /** True when it entered the queue (it was neither granted nor refused at once). */
    public boolean waits() {
      return position > 0;
    }

    /**
     * Gives the ticket up, on the first call only: a granted slot is freed (to the oldest waiter), a place still in the
     * queue is left at once (the queue shrinks, and the ticket is never granted). A slot handed over while the holder
     * was leaving is freed as soon as it arrives. A refused ticket holds nothing.
     */
    public void leave() {
      if (!left.compareAndSet(false, true)) {
        return;
      }
      if (waiter != null && dequeue(waiter)) {
        return;
      }
      granted.onSuccess(v -> release());
    }
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
    return enter(context).granted();
  }

  /** Asks for a slot: see {@link Ticket} (a waiter is woken on {@code context}). */
  public Ticket enter(Context context) {
    Waiter waiter;
    int position;
    synchronized (this) {
      if (active < maxConcurrent) {
        active++;
        return new Ticket(null, 0, Future.succeededFuture());
      }
      if (queue.size() >= maxQueued) {
        return new Ticket(null, 0, Future.failedFuture(refusal.get()));
      }
      waiter = new Waiter(context, Promise.promise());
      queue.add(waiter);
      position = queue.size();
    }
    return new Ticket(waiter, position, waiter.promise().future());
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

  /** Removes a waiter that has not been handed a slot yet; false when it has been (or was never queued). */
  private synchronized boolean dequeue(Waiter waiter) {
    return queue.removeFirstOccurrence(waiter);
  }

  public synchronized int active() {
    return active;
  }

  public synchronized int queued() {
    return queue.size();
  }
}
