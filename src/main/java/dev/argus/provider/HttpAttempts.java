package dev.argus.provider;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
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

/**
 * One attempt of a call over okhttp's asynchronous API: no Vert.x thread waits on the network, response bodies are
 * read on okhttp's threads, and every outcome is handed back on the caller's context. Failures come as
 * {@link ProviderException}s: an HTTP error status, a timeout, a network error, an unreadable or early-ended stream.
 */
final class HttpAttempts {

  /** How much of a provider's error body is kept for the log. */
  static final int MAX_BODY = 500;

  private final ProviderPolicy policy;
  private final OkHttpClient http;
  private final EventSource.Factory sse;

  HttpAttempts(ProviderPolicy policy) {
    this.policy = policy;
    int parallel = Math.max(64, policy.maxConcurrent());
    Dispatcher dispatcher = new Dispatcher();
    dispatcher.setMaxRequests(parallel);
    dispatcher.setMaxRequestsPerHost(parallel);
    long timeout = policy.timeoutMs();
    this.http = new OkHttpClient.Builder()
        .dispatcher(dispatcher)
        .connectionPool(new ConnectionPool(Math.max(5, policy.maxConcurrent()), 5, TimeUnit.MINUTES))
        .callTimeout(timeout, TimeUnit.MILLISECONDS)
        .connectTimeout(Math.min(timeout, 10_000), TimeUnit.MILLISECONDS)
        .readTimeout(timeout, TimeUnit.MILLISECONDS)
        .writeTimeout(timeout, TimeUnit.MILLISECONDS)
        .retryOnConnectionFailure(false)
        .build();
    this.sse = EventSources.createFactory(http);
  }

  /** The body of a 2xx answer. */
  Future<String> text(Context ctx, Request request) {
    Promise<String> promise = Promise.promise();
    http.newCall(request).enqueue(new Callback() {
      @Override
      public void onFailure(Call call, IOException e) {
        ctx.runOnContext(v -> promise.tryFail(ioFailure(e)));
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
          ctx.runOnContext(v -> promise.tryFail(ioFailure(e)));
          return;
        }
        ctx.runOnContext(v -> {
          if (status < 200 || status >= 300) {
            promise.tryFail(httpFailure(status, retryAfter, body));
          } else {
            promise.tryComplete(body);
          }
        });
      }
    });
    return promise.future();
  }

  /** A streamed answer: every event goes to {@code decoder} on {@code ctx}, in order. */
  <R> Future<R> stream(Context ctx, Request request, EventDecoder<R> decoder) {
    Promise<R> promise = Promise.promise();
    sse.newEventSource(request, new EventSourceListener() {
      @Override
      public void onEvent(EventSource source, String id, String type, String data) {
        ctx.runOnContext(v -> {
          if (promise.future().isComplete()) {
            return;
          }
          try {
            decoder.onEvent(type, data);
            if (decoder.finished()) {
              source.cancel();
              promise.tryComplete(decoder.result());
            }
          } catch (ProviderException e) {
            source.cancel();
            promise.tryFail(e);
          } catch (RuntimeException e) {
            source.cancel();
            promise.tryFail(ProviderException.invalid(policy.name(), "sent an unreadable stream event", e.toString()));
          }
        });
      }

      @Override
      public void onClosed(EventSource source) {
        ctx.runOnContext(v -> {
          if (decoder.finished() || decoder.completeEnough()) {
            promise.tryComplete(decoder.result());
          } else {
            promise.tryFail(new ProviderException(ProviderException.Reason.NETWORK,
                policy.name() + " stream ended before the answer was complete", 0, -1, null, null));
          }
        });
      }

      @Override
      public void onFailure(EventSource source, Throwable t, Response response) {
        ProviderException failure;
        if (response != null && !response.isSuccessful()) {
          String body;
          try {
            ResponseBody rb = response.body();
            body = rb == null ? "" : rb.string();
          } catch (IOException | IllegalStateException e) {
            body = "";
          }
          failure = httpFailure(response.code(), response.header("Retry-After"), body);
        } else if (t instanceof IOException io) {
          failure = ioFailure(io);
        } else {
          String contentType = response == null ? "?" : response.header("Content-Type");
          failure = new ProviderException(ProviderException.Reason.NETWORK, policy.name() + " stream failed",
              0, -1, "content type " + contentType + (t == null ? "" : ", " + t), t);
        }
        ctx.runOnContext(v -> promise.tryFail(failure));
      }
    });
    return promise.future();
  }

  private ProviderException httpFailure(int status, String retryAfter, String body) {
    String excerpt = body == null ? "" : body.length() > MAX_BODY ? body.substring(0, MAX_BODY) + "..." : body;
    return ProviderException.http(policy.name(), status, Backoff.parseRetryAfter(retryAfter, System.currentTimeMillis()),
        excerpt.strip());
  }

  private ProviderException ioFailure(IOException e) {
    if (e instanceof InterruptedIOException) {
      return new ProviderException(ProviderException.Reason.TIMEOUT,
          policy.name() + " timed out after " + policy.timeoutMs() + " ms", 0, -1, null, e);
    }
    return new ProviderException(ProviderException.Reason.NETWORK,
        policy.name() + " failed: network error (" + e.getClass().getSimpleName() + ")", 0, -1, e.getMessage(), e);
  }

  void close() {
    http.dispatcher().executorService().shutdown();
    http.connectionPool().evictAll();
  }
}
