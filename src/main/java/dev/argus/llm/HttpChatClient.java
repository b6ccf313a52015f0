package dev.argus.llm;

import dev.argus.common.Errors;
import dev.argus.config.LlmConf;
import dev.argus.provider.Backoff;
import dev.argus.provider.EventDecoder;
import dev.argus.provider.ProviderException;
import dev.argus.provider.ProviderPolicy;
import dev.argus.provider.ProviderTransport;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * What the HTTP providers share: configuration, the resilient {@link ProviderTransport} (with this client's
 * {@link LlmStats} as its listener), request building, and the mapping of transport failures to
 * {@link LlmProviderException} (the provider answered with an error) or {@link LlmUnavailableException}.
 */
abstract class HttpChatClient implements LlmClient {

  private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");

  protected final LlmConf conf;
  protected final LlmStats stats;
  protected final ProviderTransport transport;
  private final ProviderPolicy policy;
  private final String endpoint;

  HttpChatClient(Vertx vertx, LlmConf conf, LlmStats stats, String path) {
    this.conf = conf;
    this.stats = stats;
    this.policy = policy(conf);
    this.transport = new ProviderTransport(vertx, policy, listener(stats));
    this.endpoint = endpoint(conf.baseUrl(), path);
  }

  /** The {@code llm} section as a transport policy: timeouts are not retried, a too long Retry-After fails at once. */
  static ProviderPolicy policy(LlmConf conf) {
    return new ProviderPolicy(name(conf), conf.timeoutMs(), conf.maxRetries(),
        new Backoff(conf.retryBaseMs(), conf.retryMaxMs(), conf.retryMaxMs(),
            Backoff.OverLimit.GIVE_UP),
        false, conf.maxConcurrent(), conf.maxQueued(), conf.breakerFailures(), conf.breakerResetMs(), conf.apiKey());
  }

  /** How messages name this provider, e.g. {@code openai LLM}. */
  static String name(LlmConf conf) {
    return conf.provider() + " LLM";
  }

  private static ProviderTransport.Listener listener(LlmStats stats) {
    return new ProviderTransport.Listener() {
      @Override
      public void called() {
        stats.recordCall();
      }

      @Override
      public void retried() {
        stats.recordRetry();
      }

      @Override
      public void succeeded(Object result) {
        stats.recordSuccess(result instanceof ChatResult chat ? chat.usage() : Usage.NONE);
      }

      @Override
      public void rejected() {
        stats.recordRejected();
      }

      @Override
      public void took(long nanos, boolean succeeded) {
        stats.recordLatency(nanos, succeeded);
      }

      @Override
      public void failed() {
        stats.recordFailure();
      }
    };
  }

  /** {@code baseUrl} with or without a trailing {@code /v1}, plus {@code /v1/<path>}. */
  static String endpoint(String baseUrl, String path) {
    String base = baseUrl.strip();
    while (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    if (!base.endsWith("/v1")) {
      base = base + "/v1";
    }
    return base + "/" + path;
  }

  String endpoint() {
    return endpoint;
  }

  /** The provider's JSON body for {@code request}. */
  abstract JsonObject body(ChatRequest request, boolean stream);

  /** Adds the provider's authentication and version headers. */
  abstract Request.Builder headers(Request.Builder builder);

  /** The answer as a result; throws {@link ProviderException#invalid} for an answer it cannot use. */
  abstract ChatResult parse(JsonObject response);

  abstract StreamDecoder decoder();

  private ChatResult parseText(String body) {
    JsonObject json;
    try {
      json = new JsonObject(body);
    } catch (RuntimeException e) {
      throw ProviderException.invalid(name(conf), "answered invalid JSON", body);
    }
    return parse(json);
  }

  private Request request(ChatRequest chat, boolean stream) {
    Request.Builder b = new Request.Builder()
        .url(endpoint)
        .post(RequestBody.create(body(chat, stream).encode(), JSON));
    if (stream) {
      b.header("Accept", "text/event-stream");
    }
    return headers(b).build();
  }

  @Override
  public boolean enabled() {
    return true;
  }

  @Override
  public String provider() {
    return conf.provider();
  }

  @Override
  public Future<ChatResult> chat(ChatRequest request) {
    return transport.call(request(request, false), this::parseText).recover(this::failure);
  }

  @Override
  public Future<ChatResult> stream(ChatRequest request, Consumer<String> onToken) {
    AtomicBoolean emitted = new AtomicBoolean();
    Consumer<String> tracking = token -> {
      emitted.set(true);
      onToken.accept(token);
    };
    return transport.stream(request(request, true), () -> events(decoder(), tracking), () -> !emitted.get())
        .recover(this::failure);
  }

  private static EventDecoder<ChatResult> events(StreamDecoder decoder, Consumer<String> onToken) {
    return new EventDecoder<>() {
      @Override
      public void onEvent(String type, String data) {
        decoder.onEvent(type, data, onToken);
      }

      @Override
      public boolean finished() {
        return decoder.finished();
      }

      @Override
      public boolean completeEnough() {
        return decoder.completeEnough();
      }

      @Override
      public ChatResult result() {
        return decoder.result();
      }
    };
  }

  /** The transport's failure as this API's: an HTTP status makes an {@link LlmProviderException}. */
  private <T> Future<T> failure(Throwable err) {
    if (err instanceof ProviderException p) {
      return Future.failedFuture(p.status() > 0 ? new LlmProviderException(p.getMessage(), p.status(), p.retryAfterMs(), p)
          : new LlmUnavailableException(p.getMessage(), p));
    }
    if (err instanceof LlmUnavailableException u) {
      return Future.failedFuture(u);
    }
    return Future.failedFuture(new LlmUnavailableException(name(conf) + " failed: "
        + policy.redact(Errors.rootMessage(err)), err));
  }

  @Override
  public LlmStats stats() {
    return stats;
  }

  /** The circuit breaker's state: CLOSED, OPEN or HALF_OPEN. */
  public String breakerState() {
    return transport.breakerState();
  }

  @Override
  public Future<Void> close() {
    return transport.close();
  }

  double temperature(ChatRequest r) {
    return r.temperature() != null ? r.temperature() : conf.temperature();
  }

  int maxTokens(ChatRequest r) {
    return r.maxTokens() != null ? r.maxTokens() : conf.maxTokens();
  }

  /** Tool-call arguments as an object; text that is not a JSON object is kept under {@code _raw}. */
  static JsonObject arguments(String text) {
    if (text == null || text.isBlank()) {
      return new JsonObject();
    }
    try {
      return new JsonObject(text);
    } catch (RuntimeException e) {
      return new JsonObject().put("_raw", text);
    }
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[" + conf + "]";
  }
}
