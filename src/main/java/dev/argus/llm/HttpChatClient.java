package dev.argus.llm;

import dev.argus.config.LlmConf;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;

import java.util.function.Consumer;

/** What the HTTP providers share: configuration, the resilient transport, request building helpers. */
abstract class HttpChatClient implements LlmClient {

  private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");

  protected final LlmConf conf;
  protected final LlmStats stats;
  protected final ProviderTransport transport;
  private final String endpoint;

  HttpChatClient(Vertx vertx, LlmConf conf, LlmStats stats, String path) {
    this.conf = conf;
    this.stats = stats;
    this.transport = new ProviderTransport(vertx, conf.provider(), conf, stats);
    this.endpoint = endpoint(conf.baseUrl(), path);
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

  abstract ChatResult parse(JsonObject response);

  abstract StreamDecoder decoder();

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
    return transport.call(request(request, false), this::parse);
  }

  @Override
  public Future<ChatResult> stream(ChatRequest request, Consumer<String> onToken) {
    return transport.stream(request(request, true), this::decoder, onToken);
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
