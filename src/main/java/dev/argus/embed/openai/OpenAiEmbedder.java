package dev.argus.embed.openai;

import dev.argus.config.EmbeddingConf;
import dev.argus.embed.Embedder;
import dev.argus.embed.EmbeddingException;
import dev.argus.provider.Backoff;
import dev.argus.provider.ProviderException;
import dev.argus.provider.ProviderPolicy;
import dev.argus.provider.ProviderTransport;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * {@link Embedder} calling an OpenAI-compatible {@code POST /v1/embeddings} endpoint through the shared
 * {@link ProviderTransport} (okhttp's asynchronous API; no thread waits on the network). Results, failures and
 * retries are delivered on the caller's Vert.x context; an error body is logged, never put in a failure message.
 *
 * <ul>
 *   <li>Texts go out in requests of {@code embedding.batchSize} inputs, one request after another.</li>
 *   <li>Each request has a whole-call timeout of {@code embedding.timeoutMs}.</li>
 *   <li>HTTP 429, 5xx, network errors and timeouts are retried up to {@code embedding.maxRetries} times with
 *       exponential backoff and jitter, or after the server's {@code Retry-After} (capped at 60 s). Other 4xx
 *       fail at once.</li>
 *   <li>Responses are validated (one vector per input, every {@code index} once, one dimension throughout and
 *       equal to {@link #dimension()}), sorted by {@code index} and L2-normalized.</li>
 *   <li>{@link #dimension()}: {@code embedding.dimension} when set, otherwise learned by the start-up probe in
 *       {@link #connect} (one request embedding a short text), so it is known before the first real call.</li>
 * </ul>
 * The API key is sent as {@code Authorization: Bearer} and never logged or printed.
 */
public final class OpenAiEmbedder implements Embedder {

  private static final Logger LOG = Logger.getLogger(OpenAiEmbedder.class.getName());
  private static final MediaType JSON = MediaType.get("application/json");
  private static final int MAX_ERROR_BODY = 300;
  /** The longest backoff between retries. */
  static final long MAX_BACKOFF_MS = 8_000;
  /** The longest wait a {@code Retry-After} gets; a longer one is waited for this long. */
  static final long MAX_RETRY_AFTER_MS = 60_000;
  static final String PROBE_TEXT = "dimension probe";

  private final ProviderTransport transport;
  private final String url;
  private final String model;
  private final String apiKey;
  private final int batchSize;
  private volatile int dimension;

  OpenAiEmbedder(Vertx vertx, EmbeddingConf conf, long initialBackoffMs) {
    this.url = endpoint(conf.baseUrl());
    this.model = conf.model();
    this.apiKey = conf.apiKey() == null ? "" : conf.apiKey();
    this.batchSize = conf.batchSize();
    this.dimension = conf.dimension();
    this.transport = new ProviderTransport(vertx, policy(conf, url, initialBackoffMs), ProviderTransport.Listener.NONE);
  }

  /**
   * The {@code embedding} section as a transport policy: timeouts are retried, a {@code Retry-After} is waited
   * for up to {@link #MAX_RETRY_AFTER_MS}; no concurrency cap and no breaker (ingestion embeds one batch of a
   * document after the other, and a failed document is reported, not retried by the caller).
   */
  static ProviderPolicy policy(EmbeddingConf conf, String url, long initialBackoffMs) {
    return new ProviderPolicy("embedding provider " + url, conf.timeoutMs(), conf.maxRetries(),
        new Backoff(initialBackoffMs, MAX_BACKOFF_MS, MAX_RETRY_AFTER_MS, Backoff.OverLimit.WAIT_LIMIT),
        true, 0, 0, 0, 0, conf.apiKey());
  }

  /**
   * Creates the embedder; when {@code embedding.dimension} is 0, learns the dimension with one probe request
   * (so a wrong URL, model or key also stops start-up with a clear message).
   */
  public static Future<Embedder> connect(Vertx vertx, EmbeddingConf conf) {
    return connect(vertx, conf, 250);
  }

  static Future<Embedder> connect(Vertx vertx, EmbeddingConf conf, long initialBackoffMs) {
    OpenAiEmbedder embedder = new OpenAiEmbedder(vertx, conf, initialBackoffMs);
    if (embedder.dimension > 0) {
      return Future.succeededFuture(embedder);
    }
    return embedder.embedPassages(List.of(PROBE_TEXT))
        .<Embedder>map(vectors -> embedder)
        .recover(err -> embedder.close().transform(v -> Future.failedFuture(new EmbeddingException(
            "embedding provider probe failed (set embedding.dimension to skip it): " + err.getMessage(),
            false, err))));
  }

  /** {@code {baseUrl}/v1/embeddings}, or {@code {baseUrl}/embeddings} when the base URL already ends in /v1. */
  static String endpoint(String baseUrl) {
    String base = baseUrl.strip();
    while (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    return base.endsWith("/v1") ? base + "/embeddings" : base + "/v1/embeddings";
  }

  @Override
  public String modelName() {
    return model;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public Future<List<float[]>> embedPassages(List<String> texts) {
    List<String> copy = List.copyOf(texts);
    if (copy.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    int batches = (copy.size() + batchSize - 1) / batchSize;
    List<float[]> out = new ArrayList<>(copy.size());
    Future<Void> chain = Future.succeededFuture();
    for (int b = 0; b < batches; b++) {
      List<String> part = copy.subList(b * batchSize, Math.min(copy.size(), (b + 1) * batchSize));
      String what = batches == 1 ? "" : " (batch " + (b + 1) + " of " + batches + ")";
      chain = chain.compose(v -> request(part, what).map(vectors -> {
        out.addAll(vectors);
        return null;
      }));
    }
    return chain.map(v -> out);
  }

  @Override
  public Future<float[]> embedQuery(String text) {
    return embedPassages(List.of(text)).map(vectors -> vectors.get(0));
  }

  /** One request through the transport (retries, timeout); completes on the caller's context. */
  private Future<List<float[]>> request(List<String> inputs, String what) {
    String body = new JsonObject().put("model", model).put("input", new JsonArray(new ArrayList<>(inputs))).encode();
    Request.Builder rb = new Request.Builder().url(url).post(RequestBody.create(body, JSON))
        .header("Accept", "application/json");
    if (!apiKey.isEmpty()) {
      rb.header("Authorization", "Bearer " + apiKey);
    }
    return transport.call(rb.build(), text -> parse(text, inputs.size(), what)).recover(err -> {
      if (err instanceof ProviderException p) {
        boolean transientFailure = p.transientFailure() || p.reason() == ProviderException.Reason.TIMEOUT;
        return Future.failedFuture(new EmbeddingException(p.getMessage() + what, transientFailure, p));
      }
      return Future.failedFuture(err);
    });
  }

  /** Validates an {@code /v1/embeddings} response and returns its vectors in input order, L2-normalized. */
  List<float[]> parse(String text, int expected, String what) {
    String where = "embedding response from " + url + what;
    JsonObject json;
    try {
      json = new JsonObject(text);
    } catch (DecodeException | ClassCastException e) {
      throw unusable(where + " is not a JSON object", text);
    }
    JsonArray data = json.getValue("data") instanceof JsonArray a ? a : null;
    if (data == null) {
      throw unusable(where + " has no 'data' array", text);
    }
    if (data.size() != expected) {
      throw new EmbeddingException(where + " has " + data.size() + " embeddings for " + expected + " inputs", false);
    }
    float[][] vectors = new float[expected][];
    int dim = dimension;
    for (int i = 0; i < data.size(); i++) {
      if (!(data.getValue(i) instanceof JsonObject item)
          || !(item.getValue("embedding") instanceof JsonArray emb)) {
        throw new EmbeddingException(where + ": data[" + i + "] has no 'embedding' array", false);
      }
      int index = item.getValue("index") instanceof Number n ? n.intValue() : (data.size() == 1 ? 0 : -1);
      if (index < 0 || index >= expected || vectors[index] != null) {
        throw new EmbeddingException(where + ": data[" + i + "] has a missing, duplicate or out-of-range index "
            + item.getValue("index"), false);
      }
      if (emb.isEmpty() || (dim > 0 && emb.size() != dim)) {
        throw new EmbeddingException(where + ": data[" + i + "] has dimension " + emb.size() + ", expected "
            + (dim > 0 ? dim : "a non-empty vector"), false);
      }
      dim = emb.size();
      float[] v = new float[dim];
      for (int d = 0; d < dim; d++) {
        if (!(emb.getValue(d) instanceof Number x) || !Double.isFinite(x.doubleValue())) {
          throw new EmbeddingException(where + ": data[" + i + "].embedding[" + d + "] is not a finite number", false);
        }
        v[d] = x.floatValue();
      }
      vectors[index] = normalize(v, where);
    }
    if (dimension == 0) {
      dimension = dim;
    }
    return List.of(vectors);
  }

  private static float[] normalize(float[] v, String where) {
    double norm = 0;
    for (float x : v) {
      norm += (double) x * x;
    }
    if (norm == 0) {
      throw new EmbeddingException(where + " contains an all-zero vector", false);
    }
    double inv = 1 / Math.sqrt(norm);
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) (v[i] * inv);
    }
    return v;
  }

  /** A failure whose message says what is wrong; the body itself (the provider's words) goes to the log only. */
  private EmbeddingException unusable(String message, String body) {
    LOG.warning(() -> transport.redact(message + "; body: " + snippet(body)));
    return new EmbeddingException(message, false);
  }

  private static String snippet(String text) {
    String t = text == null ? "" : text.strip().replaceAll("\\s+", " ");
    return t.isEmpty() ? "(empty body)" : t.length() > MAX_ERROR_BODY ? t.substring(0, MAX_ERROR_BODY) + "..." : t;
  }

  @Override
  public Future<Void> close() {
    return transport.close();
  }

  @Override
  public String toString() {
    return "OpenAiEmbedder[url=" + url + ", model=" + model + ", apiKey=" + (apiKey.isEmpty() ? "" : "***")
        + ", dimension=" + dimension + "]";
  }
}
