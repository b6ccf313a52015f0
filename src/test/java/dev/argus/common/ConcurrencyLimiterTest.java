package dev.argus.common;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tickets of the limiter (1 slot, 2 places in the queue): places, leaving the queue, leaving after a hand-over. */
class ConcurrencyLimiterTest {

  private Vertx vertx;
  private Context context;
  private ConcurrencyLimiter limiter;

  @BeforeEach
  void setUp() {
    vertx = Vertx.vertx();
    context = vertx.getOrCreateContext();
    limiter = new ConcurrencyLimiter(1, 2, () -> new IllegalStateException("full"));
  }

  @AfterEach
  void tearDown() throws Exception {
    await(vertx.close());
  }

  static <T> T await(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void placesAreCountedAndARefusalHoldsNothing() {
    ConcurrencyLimiter.Ticket a = limiter.enter(context);
    ConcurrencyLimiter.Ticket b = limiter.enter(context);
    ConcurrencyLimiter.Ticket c = limiter.enter(context);
    ConcurrencyLimiter.Ticket d = limiter.enter(context);
    assertTrue(a.granted().succeeded());
    assertEquals(0, a.position());
    assertFalse(a.waits());
    assertEquals(1, b.position());
    assertEquals(2, c.position());
    assertTrue(b.waits() && c.waits());
    assertTrue(d.granted().failed());
    assertEquals("full", d.granted().cause().getMessage());
    d.leave(); // holds nothing: changes nothing
    assertEquals(1, limiter.active());
    assertEquals(2, limiter.queued());
  }

  @Test
  void aWaiterThatLeavesIsSkippedAndNeverGranted() throws Exception {
    ConcurrencyLimiter.Ticket a = limiter.enter(context);
    ConcurrencyLimiter.Ticket b = limiter.enter(context);
    ConcurrencyLimiter.Ticket c = limiter.enter(context);
    b.leave();
    b.leave(); // once only
    assertEquals(1, limiter.queued());
    ConcurrencyLimiter.Ticket e = limiter.enter(context); // b's place is free again
    assertEquals(2, e.position());
    a.leave();
    await(c.granted()); // the slot skipped b
    assertFalse(b.granted().isComplete());
    assertEquals(1, limiter.active());
    assertEquals(1, limiter.queued());
    c.leave();
    await(e.granted());
    e.leave();
    assertEquals(0, limiter.active());
    assertEquals(0, limiter.queued());
  }

  @Test
  void aWaiterHandedItsSlotAsItLeavesFreesItOnArrival() throws Exception {
    ConcurrencyLimiter.Ticket a = limiter.enter(context);
    ConcurrencyLimiter.Ticket b = limiter.enter(context);
    // hand-over and leaving race on the context: b is polled from the queue (its grant is scheduled on the context),
    // then leaves before the grant has run
    await(Future.<Void>future(p -> context.runOnContext(v -> {
      a.leave();
      b.leave();
      assertFalse(b.granted().isComplete());
      p.complete();
    })));
    await(b.granted());
    await(Future.<Void>future(p -> context.runOnContext(v -> p.complete()))); // after b's release ran
    assertEquals(0, limiter.active());
    assertEquals(0, limiter.queued());
  }
}
