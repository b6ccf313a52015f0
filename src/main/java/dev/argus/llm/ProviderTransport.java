package dev.argus.llm;

import dev.argus.config.LlmConf;
import io.vertx.circuitbreaker.CircuitBreaker;
import io.vertx.circuitbreaker.CircuitBreakerOptions;
import io.vertx.circuitbreaker.OpenCircuitException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okhttp3.sse.EventSource;
import okhttp3.sse.EventSourceListener;
import okhttp3.sse.EventSources;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The resilient HTTP path to one provider: okhttp asynchronous calls (never blocking a Vert.x thread), a call
 * timeout, a cap on concurrent requests with a bounded queue, retries with exponential backoff and jitter on
 * 429/5xx/network errors (honouring {@code Retry-After}), and one circuit breaker. Results and streamed events
 * are delivered on the caller's Vert.x context. A {@code Retry-After} longer than {@code retryMaxMs} is not waited
 * for: the call fails at once. Timeouts are not retried (the budget is spent) but count as
 * breaker failures; a stream that already emitted text is never retried.
 */
final class ProviderTransport {

  private static final Logger LOG = Logger.getLogger(ProviderTransport.class.getName());
  private static final int MAX_ERROR_BODY = 500;

  private final Vertx vertx;
  private final String provider;
  private final LlmConf conf;
  private final LlmStats stats;
  private final OkHttpClient http;
  private final EventSource.Factory sse;
  private final CircuitBreaker breaker;
  private final ConcurrencyLimiter limiter;
  private final Backoff backoff;

  ProviderTransport(Vertx vertx, String provider, LlmConf conf, LlmStats stats) {
    this.vertx = vertx;
    this.provider = provider;
    this.conf = conf;
    this.stats = stats;
    Dispatcher dispatcher = new Dispatcher();
    dispatcher.setMaxRequests(Math.max(64, conf.maxConcurrent()));
    dispatcher.setMaxRequestsPerHost(Math.max(64, conf.maxConcurrent()));
    this.http = new OkHttpClient.Builder()
        .dispatcher(dispatcher)
        .connectionPool(new ConnectionPool(Math.max(5, conf.maxConcurrent()), 5, TimeUnit.MINUTES))
        .callTimeout(conf.timeoutMs(), TimeUnit.MILLISECONDS)
        .connectTimeout(Math.min(conf.timeoutMs(), 10_000), TimeUnit.MILLISECONDS)
        .readTimeout(conf.timeoutMs(), TimeUnit.MILLISECONDS)
        .writeTimeout(conf.timeoutMs(), TimeUnit.MILLISECONDS)
        .retryOnConnectionFailure(false)
        .build();
    this.sse = EventSources.createFactory(http);
    this.breaker = CircuitBreaker.create("llm-" + provider, vertx, new CircuitBreakerOptions()
            .setMaxFailures(conf.breakerFailures())
            .setResetTimeout(conf.breakerResetMs())
            .setTimeout(-1)
            .setMaxRetries(0)
            .setNotificationAddress(null))
        .failurePolicy(ProviderTransport::isBreakerFailure)
        .openHandler(v -> LOG.warning(provider + " LLM circuit breaker opened"))
        .closeHandler(v -> LOG.info(provider + " LLM circuit breaker closed"));
    this.limiter = new ConcurrencyLimiter(provider, conf.maxConcurrent(), conf.maxQueued());
    this.backoff = new Backoff(conf.retryBaseMs(), conf.retryMaxMs());
  }

  /** A failure that says the provider is unhealthy: not a 4xx the request caused, not our own queue being full. */
  private static boolean isBreakerFailure(Future<?> outcome) {
    if (outcome.succeeded()) {
      return false;
    }
    Throwable err = outcome.cause();
    if (err instanceof ConcurrencyLimiter.QueueFullException) {
      return false;
    }
    return !(err instanceof LlmProviderException p) || p.retryable();
  }

  String breakerState() {
    return breaker.state().name();
  }

  int active() {
    return limiter.active();
  }

  /** POSTs a JSON request and parses the JSON answer. */
  <T> Future<T> call(Request request, Function<JsonObject, T> parse) {
    Context ctx = vertx.getOrCreateContext();
    return run(ctx, () -> once(ctx, request).map(parse), () -> true);
  }

  /** POSTs a streaming request; {@code onToken} gets text deltas on the caller's context. */
  Future<ChatResult> stream(Request request, Supplier<StreamDecoder> decoders, Consumer<String> onToken) {
    Context ctx = vertx.getOrCreateContext();
    AtomicBoolean emitted = new AtomicBoolean();
    Consumer<String> tracking = token -> {
      emitted.set(true);
      onToken.accept(token);
    };
    return run(ctx, () -> onceStream(ctx, request, decoders.get(), tracking), () -> !emitted.get());
  }

  private <T> Future<T> run(Context ctx, Supplier<Future<T>> attempt, BooleanSupplier mayRetry) {
    stats.recordCall();
    Promise<T> result = Promise.promise();
    ctx.runOnContext(v -> attempt(ctx, attempt, mayRetry, 0, result));
    return result.future();
  }

  private <T> void attempt(Context ctx, Supplier<Future<T>> attempt, BooleanSupplier mayRetry, int retry,
                           Promise<T> result) {
    breaker.<T>execute(() -> limiter.acquire(ctx)
            .compose(slot -> attempt.get().andThen(done -> limiter.release())))
        .onComplete(ar -> {
          if (ar.succeeded()) {
            if (ar.result() instanceof ChatResult chat) {
              stats.recordSuccess(chat.usage());
            } else {
              stats.recordSuccess(Usage.NONE);
            }
            result.complete(ar.result());
            return;
          }
          Throwable err = ar.cause();
          long retryAfter = err instanceof LlmProviderException p ? p.retryAfterMs() : -1;
          if (retry < conf.maxRetries() && retryable(err) && mayRetry.getAsBoolean() && retryAfter <= conf.retryMaxMs()) {
            long delay = backoff.delayMs(retry, retryAfter);
            stats.recordRetry();
            LOG.log(Level.INFO, () -> provider + " LLM call failed (" + describe(err) + "), retry " + (retry + 1)
                + "/" + conf.maxRetries() + " in " + delay + " ms");
            vertx.setTimer(Math.max(1, delay), id -> attempt(ctx, attempt, mayRetry, retry + 1, result));
            return;
          }
          LlmUnavailableException failure = mayRetry.getAsBoolean() ? unavailable(err)
              : new LlmUnavailableException(provider + " LLM stream broke off after text was emitted: "
                  + describe(err), err);
          if (err instanceof OpenCircuitException || err instanceof ConcurrencyLimiter.QueueFullException) {
            stats.recordRejected();
          }
          stats.recordFailure();
          LOG.log(Level.WARNING, () -> provider + " LLM call failed: " + failure.getMessage());
          result.fail(failure);
        });
  }

  private static boolean retryable(Throwable err) {
    if (err instanceof LlmProviderException p) {
      return p.retryable();
    }
    return err instanceof IOException && !(err instanceof InterruptedIOException);
  }

  private LlmUnavailableException unavailable(Throwable err) {
    if (err instanceof LlmUnavailableException u) {
      return u;
    }
    if (err instanceof OpenCircuitException) {
      return new LlmUnavailableException(provider + " LLM circuit breaker is open", err);
    }
    if (err instanceof InterruptedIOException) {
      return new LlmUnavailableException(provider + " LLM timed out after " + conf.timeoutMs() + " ms", err);
    }
    return new LlmUnavailableException(provider + " LLM failed: " + describe(err), err);
  }

  private String describe(Throwable err) {
    String msg = err.getMessage() == null ? err.getClass().getSimpleName() : err.getMessage();
    return redact(msg);
  }

  /** Removes the API key from text that came from elsewhere (error bodies may echo it). */
  String redact(String text) {
    String key = conf.apiKey();
    if (text == null || key == null || key.isEmpty()) {
      return text;
    }
    return text.replace(key, "***");
  }

  private Future<JsonObject> once(Context ctx, Request request) {
    Promise<JsonObject> promise = Promise.promise();
    http.newCall(request).enqueue(new Callback() {
      @Override
      public void onFailure(Call call, IOException e) {
        ctx.runOnContext(v -> promise.tryFail(e));
      }

      @Override
      public void onResponse(Call call, Response response) {
        int status = response.code();
        String retryAfter = response.header("Retry-After");
        String body;
        try (response) {
          ResponseBody rb = response.body();
          body = rb == null ? "" : rb.string();
        } catch (IOException e) {
          ctx.runOnContext(v -> promise.tryFail(e));
          return;
        }
        ctx.runOnContext(v -> {
          if (status < 200 || status >= 300) {
            promise.tryFail(httpError(status, retryAfter, body));
            return;
          }
          try {
            promise.tryComplete(new JsonObject(body));
          } catch (DecodeException | ClassCastException e) {
            promise.tryFail(new LlmProviderException(provider + " answered invalid JSON", 502, -1));
          }
        });
      }
    });
    return promise.future();
  }

  private Future<ChatResult> onceStream(Context ctx, Request request, StreamDecoder decoder, Consumer<String> onToken) {
    Promise<ChatResult> promise = Promise.promise();
    sse.newEventSource(request, new EventSourceListener() {
      @Override
      public void onEvent(EventSource source, String id, String type, String data) {
        ctx.runOnContext(v -> {
          if (promise.future().isComplete()) {
            return;
          }
          try {
            decoder.onEvent(type, data, onToken);
            if (decoder.finished()) {
              source.cancel();
              promise.tryComplete(decoder.result());
            }
          } catch (LlmProviderException e) {
            source.cancel();
            promise.tryFail(e);
          } catch (RuntimeException e) {
            source.cancel();
            promise.tryFail(new LlmProviderException(provider + " sent an unreadable stream event: "
                + describe(e), 502, -1));
          }
        });
      }

      @Override
      public void onClosed(EventSource source) {
        ctx.runOnContext(v -> {
          if (decoder.finished() || decoder.completeEnough()) {
            promise.tryComplete(decoder.result());
          } else {
            promise.tryFail(new IOException(provider + " stream ended before the answer was complete"));
          }
        });
      }

      @Override
      public void onFailure(EventSource source, Throwable t, Response response) {
        Throwable failure;
        if (response != null && !response.isSuccessful()) {
          String body;
          try {
            ResponseBody rb = response.body();
            body = rb == null ? "" : rb.string();
          } catch (IOException | IllegalStateException e) {
            body = "";
          }
          failure = httpError(response.code(), response.header("Retry-After"), body);
        } else if (t != null) {
          failure = t instanceof IOException ? t : new IOException(t.getMessage(), t);
        } else {
          failure = new IOException(provider + " stream failed (content type "
              + (response == null ? "?" : response.header("Content-Type")) + ")");
        }
        ctx.runOnContext(v -> promise.tryFail(failure));
      }
    });
    return promise.future();
  }

  private LlmProviderException httpError(int status, String retryAfter, String body) {
    String excerpt = body == null ? "" : body.length() > MAX_ERROR_BODY ? body.substring(0, MAX_ERROR_BODY) + "..." : body;
    return new LlmProviderException(provider + " answered HTTP " + status + (excerpt.isBlank() ? "" : ": "
        + redact(excerpt.strip())), status, Backoff.parseRetryAfter(retryAfter));
  }

  Future<Void> close() {
    breaker.close();
    http.dispatcher().executorService().shutdown();
    http.connectionPool().evictAll();
    return Future.succeededFuture();
  }
}
