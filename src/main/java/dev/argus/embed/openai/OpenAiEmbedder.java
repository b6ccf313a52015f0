package dev.argus.embed.openai;

import dev.argus.config.EmbeddingConf;
import dev.argus.embed.Embedder;
import dev.argus.embed.EmbeddingException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * {@link Embedder} calling an OpenAI-compatible {@code POST /v1/embeddings} endpoint with okhttp's asynchronous
 * API ({@code enqueue}; no thread waits on the network). Results, failures and retries are delivered on the
 * caller's Vert.x context.
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
  static final String PROBE_TEXT = "dimension probe";

  private final Vertx vertx;
  private final OkHttpClient http;
  private final String url;
  private final String model;
  private final String apiKey;
  private final int batchSize;
  private final int maxRetries;
  private final long timeoutMs;
  private final Backoff backoff;
  private volatile int dimension;

  OpenAiEmbedder(Vertx vertx, EmbeddingConf conf, long initialBackoffMs) {
    this.vertx = vertx;
    this.url = endpoint(conf.baseUrl());
    this.model = conf.model();
    this.apiKey = conf.apiKey() == null ? "" : conf.apiKey();
    this.batchSize = conf.batchSize();
    this.maxRetries = conf.maxRetries();
    this.timeoutMs = conf.timeoutMs();
    this.dimension = conf.dimension();
    this.backoff = new Backoff(initialBackoffMs, 8_000);
    this.http = new OkHttpClient.Builder()
        .callTimeout(Duration.ofMillis(conf.timeoutMs()))
        .retryOnConnectionFailure(false)
        .build();
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
    Context ctx = vertx.getOrCreateContext();
    if (copy.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    int batches = (copy.size() + batchSize - 1) / batchSize;
    List<float[]> out = new ArrayList<>(copy.size());
    Future<Void> chain = Future.succeededFuture();
    for (int b = 0; b < batches; b++) {
      List<String> part = copy.subList(b * batchSize, Math.min(copy.size(), (b + 1) * batchSize));
      String what = batches == 1 ? "" : " (batch " + (b + 1) + " of " + batches + ")";
      chain = chain.compose(v -> request(ctx, part, what).map(vectors -> {
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

  /** One request with retries; completes on {@code ctx}. */
  private Future<List<float[]>> request(Context ctx, List<String> inputs, String what) {
    Promise<List<float[]>> promise = Promise.promise();
    String body = new JsonObject().put("model", model).put("input", new JsonArray(new ArrayList<>(inputs))).encode();
    attempt(ctx, inputs.size(), body, what, 1, promise);
    return promise.future();
  }

  private void attempt(Context ctx, int expected, String body, String what, int attempt,
                       Promise<List<float[]>> promise) {
    Request.Builder rb = new Request.Builder().url(url).post(RequestBody.create(body, JSON))
        .header("Accept", "application/json");
    if (!apiKey.isEmpty()) {
      rb.header("Authorization", "Bearer " + apiKey);
    }
    AtomicInteger done = new AtomicInteger();
    http.newCall(rb.build()).enqueue(new Callback() {
      @Override
      public void onFailure(Call call, IOException e) {
        if (done.getAndIncrement() == 0) {
          String reason = e instanceof InterruptedIOException
              ? "timed out after " + timeoutMs + " ms"
              : "network error: " + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
          ctx.runOnContext(v -> handle(ctx, expected, body, what, attempt, promise,
              new EmbeddingException(describe(what, attempt) + " " + reason, true, e)));
        }
      }

      @Override
      public void onResponse(Call call, Response response) {
        // Runs on an okhttp thread: reading the body may block, so it happens here, never on the event loop.
        int status = response.code();
        String retryAfter = response.header("Retry-After");
        String text;
        try (ResponseBody rbody = response.body()) {
          text = rbody == null ? "" : rbody.string();
        } catch (IOException e) {
          onFailure(call, e);
          return;
        }
        if (done.getAndIncrement() == 0) {
          ctx.runOnContext(v -> {
            try {
              if (status == 429 || status >= 500) {
                throw new RetryAfter(describe(what, attempt) + " got HTTP " + status + ": " + snippet(text), retryAfter);
              }
              if (status < 200 || status >= 300) {
                throw new EmbeddingException(describe(what, attempt) + " was rejected with HTTP " + status + ": "
                    + snippet(text), false);
              }
              promise.complete(parse(text, expected, what));
            } catch (RetryAfter ra) {
              handle(ctx, expected, body, what, attempt, promise, ra);
            } catch (RuntimeException e) {
              promise.fail(e);
            }
          });
        }
      }
    });
  }

  /** Retries a transient failure after a delay (on {@code ctx}), or fails the promise. */
  private void handle(Context ctx, int expected, String body, String what, int attempt,
                      Promise<List<float[]>> promise, EmbeddingException failure) {
    if (!failure.retryable() || attempt > maxRetries) {
      String suffix = attempt > 1 ? " (gave up after " + attempt + " attempts)" : "";
      promise.fail(new EmbeddingException(failure.getMessage() + suffix, failure.retryable(), failure.getCause()));
      return;
    }
    String retryAfter = failure instanceof RetryAfter ra ? ra.retryAfter : null;
    long delay = backoff.delayMs(attempt, retryAfter);
    LOG.fine(() -> failure.getMessage() + "; retrying in " + delay + " ms");
    vertx.setTimer(Math.max(1, delay), id -> ctx.runOnContext(v ->
        attempt(ctx, expected, body, what, attempt + 1, promise)));
  }

  private String describe(String what, int attempt) {
    return "embedding request to " + url + what + (attempt > 1 ? " (attempt " + attempt + ")" : "");
  }

  /** Validates an {@code /v1/embeddings} response and returns its vectors in input order, L2-normalized. */
  List<float[]> parse(String text, int expected, String what) {
    String where = "embedding response from " + url + what;
    JsonObject json;
    try {
      json = new JsonObject(text);
    } catch (DecodeException | ClassCastException e) {
      throw new EmbeddingException(where + " is not a JSON object: " + snippet(text), false);
    }
    JsonArray data = json.getValue("data") instanceof JsonArray a ? a : null;
    if (data == null) {
      throw new EmbeddingException(where + " has no 'data' array: " + snippet(text), false);
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

  private static String snippet(String text) {
    String t = text == null ? "" : text.strip().replaceAll("\\s+", " ");
    return t.isEmpty() ? "(empty body)" : t.length() > MAX_ERROR_BODY ? t.substring(0, MAX_ERROR_BODY) + "..." : t;
  }

  @Override
  public Future<Void> close() {
    return vertx.executeBlocking(() -> {
      http.dispatcher().executorService().shutdown();
      http.connectionPool().evictAll();
      return null;
    }, false);
  }

  @Override
  public String toString() {
    return "OpenAiEmbedder[url=" + url + ", model=" + model + ", apiKey=" + (apiKey.isEmpty() ? "" : "***")
        + ", dimension=" + dimension + "]";
  }

  /** A retryable HTTP status, carrying the server's {@code Retry-After}. */
  private static final class RetryAfter extends EmbeddingException {
    private final String retryAfter;

    RetryAfter(String message, String retryAfter) {
      super(message, true);
      this.retryAfter = retryAfter;
    }
  }
}
