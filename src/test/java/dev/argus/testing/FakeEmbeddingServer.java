package dev.argus.testing;

import dev.argus.config.ArgusConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fake OpenAI {@code POST /v1/embeddings} on the shared {@link FakeHttpServer} scaffolding: by default it answers
 * every request with deterministic bag-of-words vectors ({@link #vector}), after {@link #delayEach} if set, and with
 * a 400 for any request whose inputs contain {@link #POISON} (the way to inject an embedding failure in the middle
 * of a document). Scripted replies ({@link #enqueue}) come first: errors with {@code Retry-After}, delays,
 * hand-made or malformed bodies. {@link #inputCount()} and {@link #texts()} count what was embedded.
 */
public final class FakeEmbeddingServer extends FakeHttpServer {

  public static final String POISON = "POISON-PILL";
  public static final int DIMENSION = 16;
  public static final String MODEL = "fake-embed-16";

  private final AtomicInteger inputs = new AtomicInteger();
  private final List<String> texts = new CopyOnWriteArrayList<>();
  private volatile long delayMs;

  private FakeEmbeddingServer(Vertx vertx) {
    super(vertx);
    respondWith(request -> (inputs(request).encode().contains(POISON)
        ? FakeReply.error(400, new JsonObject().put("error", new JsonObject().put("message", "poisoned input")
            .put("type", "invalid_request_error")).encode())
        : FakeReply.answer()).delay(delayMs));
  }

  public static Future<FakeEmbeddingServer> start(Vertx vertx) {
    return new FakeEmbeddingServer(vertx).listen();
  }

  /** Delays every default answer by this long. */
  public FakeEmbeddingServer delayEach(long ms) {
    delayMs = ms;
    return this;
  }

  /** Inputs embedded so far (by default answers). */
  public int inputCount() {
    return inputs.get();
  }

  /** The texts embedded so far, in order. */
  public List<String> texts() {
    return List.copyOf(texts);
  }

  /** The configuration with the {@code openai} embedding provider pointed at this server. */
  public ArgusConfig configure(ArgusConfig conf) {
    return conf.with("embedding", "baseUrl", baseUrl())
        .with("embedding", "model", MODEL)
        .with("embedding", "dimension", DIMENSION)
        .with("embedding", "maxRetries", 0)
        .with("embedding", "timeoutMs", 10_000)
        .with("embedding", "provider", "openai");
  }

  @Override
  protected String path() {
    return "/v1/embeddings";
  }

  @Override
  protected JsonObject json(FakeReply reply, Recorded request) {
    JsonArray input = inputs(request);
    inputs.addAndGet(input.size());
    JsonArray data = new JsonArray();
    for (int i = 0; i < input.size(); i++) {
      texts.add(input.getString(i));
      data.add(new JsonObject().put("object", "embedding").put("index", i).put("embedding", vector(input.getString(i))));
    }
    return new JsonObject().put("object", "list").put("data", data).put("model", MODEL)
        .put("usage", new JsonObject().put("prompt_tokens", 1).put("total_tokens", 1));
  }

  @Override
  protected JsonObject errorBody(FakeReply reply) {
    return new JsonObject().put("error", new JsonObject().put("message", "fake error " + reply.status)
        .put("type", reply.status == 429 ? "rate_limit_exceeded" : reply.status >= 500 ? "server_error" : "invalid_request_error"));
  }

  /** The request's {@code input}: a list of texts, or one text. */
  private static JsonArray inputs(Recorded request) {
    Object raw = request.body().getValue("input");
    return raw instanceof JsonArray a ? a : new JsonArray().add(raw);
  }

  /** A deterministic vector: 0.01 in the first place, plus one for each word in the place its hash picks. */
  public static JsonArray vector(String text) {
    float[] v = new float[DIMENSION];
    v[0] = 0.01f;
    for (String token : text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
      if (!token.isEmpty()) {
        v[Math.floorMod(token.hashCode(), DIMENSION)] += 1f;
      }
    }
    JsonArray out = new JsonArray();
    for (float f : v) {
      out.add(f);
    }
    return out;
  }
}
