package dev.argus.provider;

import dev.argus.common.ConcurrencyLimiter;

import io.vertx.circuitbreaker.CircuitBreaker;
import io.vertx.circuitbreaker.CircuitBreakerOptions;
import io.vertx.circuitbreaker.OpenCircuitException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import okhttp3.Request;

import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one resilient HTTP path to a provider (LLM or embedding), as its {@link ProviderPolicy} says: okhttp
 * asynchronous calls with a timeout ({@link HttpAttempts}), an optional cap on concurrent calls with a bounded FIFO
 * queue, retries on 429/5xx/network errors (and timeouts, if the policy says so) after the {@link Backoff}'s delay
 * or the provider's {@code Retry-After}, and an optional circuit breaker. Results are delivered on the caller's
 * Vert.x context.
 *
 * <p>Failures reach the caller as short summaries ({@link ProviderException}); what the provider wrote in an error
 * body or a stream error event is logged here, the secret removed, and goes no further. A stream that already
 * emitted text is never retried. 4xx answers and a full queue do not count against the breaker.
 */
public final class ProviderTransport {

  private static final Logger LOG = Logger.getLogger(ProviderTransport.class.getName());

  /** Hears about calls, for a client's counters. Every method may be called on any thread. */
  public interface Listener {
    Listener NONE = new Listener() {
    };

    /** A call ended (after its retries): how long it took from the first attempt, and whether it succeeded. */
    default void took(long nanos, boolean succeeded) {
    }

    default void called() {
    }

    default void retried() {
    }

    default void succeeded(Object result) {
    }

    /** Refused without reaching the provider (breaker open, queue full); {@link #failed()} follows. */
    default void rejected() {
    }

    default void failed() {
    }
  }

  private final Vertx vertx;
  private final ProviderPolicy policy;
  private final Listener listener;
  private final HttpAttempts attempts;
  private final CircuitBreaker breaker;
  private final ConcurrencyLimiter limiter;

  public ProviderTransport(Vertx vertx, ProviderPolicy policy, Listener listener) {
    this.vertx = vertx;
    this.policy = policy;
    this.listener = listener;
    this.attempts = new HttpAttempts(policy);
    this.breaker = policy.breakerFailures() == 0 ? null : CircuitBreaker.create(policy.name(), vertx,
            new CircuitBreakerOptions()
                .setMaxFailures(policy.breakerFailures())
                .setResetTimeout(policy.breakerResetMs())
                .setTimeout(-1)
                .setMaxRetries(0)
                .setNotificationAddress(null))
        .failurePolicy(ProviderTransport::isBreakerFailure)
        .openHandler(v -> LOG.warning(policy.name() + " circuit breaker opened"))
        .closeHandler(v -> LOG.info(policy.name() + " circuit breaker closed"));
    this.limiter = policy.maxConcurrent() == 0 ? null
        : new ConcurrencyLimiter(policy.maxConcurrent(), policy.maxQueued(),
            // Not a provider failure: the breaker ignores it.
            () -> new ProviderException(ProviderException.Reason.QUEUE_FULL, policy.name()
                + ": too many concurrent requests (" + policy.maxConcurrent() + " running, " + policy.maxQueued()
                + " queued)", 0, -1, null, null));
  }

  /** A failure that says the provider is unhealthy: not a 4xx the request caused, not our own queue being full. */
  private static boolean isBreakerFailure(Future<?> outcome) {
    if (outcome.succeeded()) {
      return false;
    }
    if (outcome.cause() instanceof ProviderException p) {
      return switch (p.reason()) {
        case QUEUE_FULL -> false;
        case HTTP, INVALID -> p.transientFailure();
        default -> true;
      };
    }
    return true;
  }

  /** The breaker's state: CLOSED, OPEN or HALF_OPEN ({@code NONE} without a breaker). */
  public String breakerState() {
    return breaker == null ? "NONE" : breaker.state().name();
  }

  /** Calls in flight (0 without a concurrency cap). */
  public int active() {
    return limiter == null ? 0 : limiter.active();
  }

  /**
   * Sends {@code request} and turns a 2xx body into a result with {@code parse} (on the caller's context). A
   * {@link ProviderException} thrown by {@code parse} is handled like the provider's own failure (retried when
   * transient); any other exception fails the call as it is.
   */
  public <T> Future<T> call(Request request, Function<String, T> parse) {
    Context ctx = vertx.getOrCreateContext();
    return run(ctx, () -> attempts.text(ctx, request).map(parse), () -> true);
  }

  /**
   * Sends a streaming request; each attempt decodes with a new decoder from {@code decoders}. An attempt is
   * retried only while {@code mayRetry} says so (a caller that has passed text on says no).
   */
  public <R> Future<R> stream(Request request, Supplier<? extends EventDecoder<R>> decoders, BooleanSupplier mayRetry) {
    Context ctx = vertx.getOrCreateContext();
    return run(ctx, () -> attempts.stream(ctx, request, decoders.get()), mayRetry);
  }

  private <T> Future<T> run(Context ctx, Supplier<Future<T>> attempt, BooleanSupplier mayRetry) {
    listener.called();
    long start = System.nanoTime();
    Promise<T> result = Promise.promise();
    result.future().onComplete(ar -> listener.took(System.nanoTime() - start, ar.succeeded()));
    ctx.runOnContext(v -> attempt(ctx, attempt, mayRetry, 1, result));
    return result.future();
  }

  private <T> void attempt(Context ctx, Supplier<Future<T>> attempt, BooleanSupplier mayRetry, int number,
                           Promise<T> result) {
    guarded(ctx, attempt).onComplete(ar -> {
      if (ar.succeeded()) {
        listener.succeeded(ar.result());
        result.complete(ar.result());
        return;
      }
      Throwable err = ar.cause();
      logWhatTheProviderSaid(err);
      long delay = number <= policy.maxRetries() && retryable(err) && mayRetry.getAsBoolean()
          ? policy.backoff().delayMs(number, err instanceof ProviderException p ? p.retryAfterMs() : -1) : -1;
      if (delay >= 0) {
        listener.retried();
        LOG.log(Level.INFO, () -> policy.name() + " call failed (" + policy.redact(err.getMessage()) + "), retry "
            + number + "/" + policy.maxRetries() + " in " + delay + " ms");
        vertx.setTimer(Math.max(1, delay), id -> ctx.runOnContext(v -> attempt(ctx, attempt, mayRetry, number + 1, result)));
        return;
      }
      Throwable failure = finalFailure(err, number, mayRetry.getAsBoolean());
      if (failure instanceof ProviderException p
          && (p.reason() == ProviderException.Reason.BREAKER_OPEN || p.reason() == ProviderException.Reason.QUEUE_FULL)) {
        listener.rejected();
      }
      listener.failed();
      LOG.log(Level.WARNING, () -> policy.name() + " call failed: " + policy.redact(String.valueOf(failure.getMessage())));
      result.fail(failure);
    });
  }

  /** The attempt behind the breaker and the concurrency cap, when the policy has them. */
  private <T> Future<T> guarded(Context ctx, Supplier<Future<T>> attempt) {
    Supplier<Future<T>> safe = () -> {
      try {
        return attempt.get();
      } catch (RuntimeException e) {
        return Future.failedFuture(e);
      }
    };
    Supplier<Future<T>> limited = limiter == null ? safe
        : () -> limiter.acquire(ctx).compose(slot -> safe.get().andThen(done -> limiter.release()));
    return breaker == null ? limited.get() : breaker.execute(limited);
  }

  private boolean retryable(Throwable err) {
    if (err instanceof ProviderException p) {
      return p.reason() == ProviderException.Reason.TIMEOUT ? policy.retryTimeouts() : p.transientFailure();
    }
    return false;
  }

  private Throwable finalFailure(Throwable err, int attemptsMade, boolean beforeAnyText) {
    if (err instanceof OpenCircuitException) {
      return new ProviderException(ProviderException.Reason.BREAKER_OPEN, policy.name() + " circuit breaker is open",
          0, -1, null, err);
    }
    if (!(err instanceof ProviderException p)) {
      return err;
    }
    if (!beforeAnyText) {
      return new ProviderException(p.reason(), policy.name() + " stream broke off after text was emitted: "
          + p.getMessage(), 0, -1, null, p);
    }
    if (attemptsMade == 1) {
      return p;
    }
    return new ProviderException(p.reason(), p.getMessage() + " (gave up after " + attemptsMade + " attempts)",
        p.status(), p.retryAfterMs(), null, p.getCause());
  }

  /** Logs an error body or stream error event, without the secret; callers only ever see the summary. */
  private void logWhatTheProviderSaid(Throwable err) {
    if (err instanceof ProviderException p && p.detail() != null && !p.detail().isBlank()) {
      String detail = p.detail().length() > HttpAttempts.MAX_BODY
          ? p.detail().substring(0, HttpAttempts.MAX_BODY) + "..." : p.detail();
      LOG.warning(policy.redact(p.getMessage() + "; details: " + detail.strip()));
    }
  }

  /** Removes the policy's secret from text that may echo it. */
  public String redact(String text) {
    return policy.redact(text);
  }

  public Future<Void> close() {
    if (breaker != null) {
      breaker.close();
    }
    attempts.close();
    return Future.succeededFuture();
  }
}
