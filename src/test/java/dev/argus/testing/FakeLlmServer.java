package dev.argus.testing;

import dev.argus.config.LlmConf;
import dev.argus.config.Settings;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A real HTTP server on 127.0.0.1 (random port) speaking an LLM provider's wire protocol, for tests. Replies come
 * from a FIFO script ({@link #enqueue}), then from a responder function (default: {@code text("ok")}). Records
 * every request and counts concurrent requests.
 *
 * <pre>
 * FakeOpenAiServer server = FakeOpenAiServer.start(vertx).await();   // on the test thread
 * server.enqueue(FakeReply.error(500), FakeReply.text("Hello world").usage(7, 2));
 * server.respondWith(req -> FakeReply.text("echo " + req.lastUserText()));
 * LlmConf conf = server.llmConf(new JsonObject().put("maxRetries", 0));  // small timeouts for tests
 * LlmClient client = LlmClients.create(vertx, conf);
 * ...
 * server.requests().get(0).body();       // the JSON the client sent; headers(), path(), stream()
 * server.maxConcurrent();
 * </pre>
 */
public abstract class FakeLlmServer {

  /** One received request. Header names are lower case. */
  public record Recorded(String path, Map<String, String> headers, JsonObject body, long receivedAtMs) {

    public boolean stream() {
      return body.getBoolean("stream", false);
    }

    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    /** The text of the last message, for either protocol (string content or text blocks). */
    public String lastUserText() {
      var messages = body.getJsonArray("messages");
      if (messages == null || messages.isEmpty()) {
        return "";
      }
      Object content = messages.getJsonObject(messages.size() - 1).getValue("content");
      if (content instanceof io.vertx.core.json.JsonArray blocks) {
        StringBuilder sb = new StringBuilder();
        blocks.forEach(b -> {
          if (b instanceof JsonObject o) {
            sb.append(o.getString("text", o.getValue("content") == null ? "" : o.getValue("content").toString()));
          }
        });
        return sb.toString();
      }
      return content == null ? "" : content.toString();
    }
  }

  protected final Vertx vertx;
  private final ConcurrentLinkedDeque<FakeReply> script = new ConcurrentLinkedDeque<>();
  private final List<Recorded> requests = new CopyOnWriteArrayList<>();
  private final AtomicInteger active = new AtomicInteger();
  private final AtomicInteger maxActive = new AtomicInteger();
  private volatile Function<Recorded, FakeReply> responder = r -> FakeReply.text("ok");
  private HttpServer server;

  protected FakeLlmServer(Vertx vertx) {
    this.vertx = vertx;
  }

  /** The path the provider serves, e.g. {@code /v1/chat/completions}. */
  protected abstract String path();

  /** The plain JSON answer. */
  protected abstract JsonObject json(FakeReply reply, Recorded request);

  /** The error body of an HTTP error. */
  protected abstract JsonObject errorBody(FakeReply reply);

  /** The SSE frames of a streamed answer, each complete ({@code event:}/{@code data:} lines and a blank line). */
  protected abstract List<String> frames(FakeReply reply, Recorded request);

  /** The provider name used in {@link #conf()}. */
  protected abstract String provider();

  @SuppressWarnings("unchecked")
  protected <S extends FakeLlmServer> Future<S> listen() {
    server = vertx.createHttpServer().requestHandler(this::handle);
    return server.listen(0, "127.0.0.1").map(s -> (S) this);
  }

  public int port() {
    return server.actualPort();
  }

  /** {@code http://127.0.0.1:<port>} (clients add {@code /v1}). */
  public String baseUrl() {
    return "http://127.0.0.1:" + port();
  }

  /** Configuration of section {@code llm} pointing at this server, with timeouts small enough for tests. */
  public JsonObject conf() {
    return new JsonObject()
        .put("provider", provider())
        .put("baseUrl", baseUrl())
        .put("model", "fake-model")
        .put("apiKey", "test-key")
        .put("timeoutMs", 2000)
        .put("maxRetries", 2)
        .put("retryBaseMs", 10)
        .put("retryMaxMs", 5000)
        .put("maxConcurrent", 4)
        .put("breakerFailures", 5)
        .put("breakerResetMs", 60_000);
  }

  /** {@link #conf()} parsed, with some settings replaced. */
  public LlmConf llmConf(JsonObject overrides) {
    return LlmConf.from(new Settings("llm", conf().mergeIn(overrides == null ? new JsonObject() : overrides)));
  }

  public LlmConf llmConf() {
    return llmConf(null);
  }

  /** Appends replies to the script; each request takes the next one. */
  public FakeLlmServer enqueue(FakeReply... replies) {
    script.addAll(List.of(replies));
    return this;
  }

  /** Answers requests when the script is empty. */
  public FakeLlmServer respondWith(Function<Recorded, FakeReply> responder) {
    this.responder = responder;
    return this;
  }

  public List<Recorded> requests() {
    return List.copyOf(requests);
  }

  public int requestCount() {
    return requests.size();
  }

  public Recorded lastRequest() {
    return requests.get(requests.size() - 1);
  }

  /** The highest number of requests being answered at the same time. */
  public int maxConcurrent() {
    return maxActive.get();
  }

  public Future<Void> close() {
    return server == null ? Future.succeededFuture() : server.close();
  }

  private void handle(HttpServerRequest req) {
    req.body().onSuccess(buf -> {
      Map<String, String> headers = new TreeMap<>();
      req.headers().forEach(h -> headers.put(h.getKey().toLowerCase(Locale.ROOT), h.getValue()));
      JsonObject body;
      try {
        body = buf.length() == 0 ? new JsonObject() : buf.toJsonObject();
      } catch (RuntimeException e) {
        req.response().setStatusCode(400).end("{\"error\":{\"message\":\"invalid JSON\"}}");
        return;
      }
      Recorded rec = new Recorded(req.path(), headers, body, System.currentTimeMillis());
      requests.add(rec);
      HttpServerResponse resp = req.response();
      if (!path().equals(req.path())) {
        resp.setStatusCode(404).putHeader("Content-Type", "application/json")
            .end(new JsonObject().put("error", new JsonObject().put("message", "no route " + req.path())).encode());
        return;
      }
      int now = active.incrementAndGet();
      maxActive.accumulateAndGet(now, Math::max);
      AtomicBoolean finished = new AtomicBoolean();
      Runnable done = () -> {
        if (finished.compareAndSet(false, true)) {
          active.decrementAndGet();
        }
      };
      resp.closeHandler(v -> done.run());
      resp.endHandler(v -> done.run());
      FakeReply scripted = script.poll();
      FakeReply reply = scripted != null ? scripted : responder.apply(rec);
      if (reply.delayMs > 0) {
        vertx.setTimer(reply.delayMs, id -> answer(rec, reply, resp, done));
      } else {
        answer(rec, reply, resp, done);
      }
    });
  }

  private void answer(Recorded rec, FakeReply reply, HttpServerResponse resp, Runnable done) {
    if (resp.closed()) {
      done.run();
      return;
    }
    reply.headers.forEach(resp::putHeader);
    if (reply.isError() || (reply.streamErrorType != null && !rec.stream())) {
      JsonObject err = reply.errorBody != null ? null : errorBody(reply);
      resp.setStatusCode(reply.isError() ? reply.status : 500).putHeader("Content-Type", "application/json")
          .end(reply.errorBody != null ? reply.errorBody : err.encode());
      return;
    }
    if (!rec.stream()) {
      resp.putHeader("Content-Type", "application/json").end(json(reply, rec).encode());
      return;
    }
    resp.setChunked(true).putHeader("Content-Type", "text/event-stream").putHeader("Cache-Control", "no-cache");
    writeFrames(resp, frames(reply, rec), 0, reply, done);
  }

  private void writeFrames(HttpServerResponse resp, List<String> frames, int i, FakeReply reply, Runnable done) {
    if (resp.closed()) {
      done.run();
      return;
    }
    if (reply.disconnectAfter >= 0 && i >= reply.disconnectAfter) {
      vertx.setTimer(50, id -> {
        done.run();
        resp.reset();
      });
      return;
    }
    if (i >= frames.size()) {
      resp.end();
      return;
    }
    resp.write(frames.get(i));
    if (reply.tokenDelayMs > 0) {
      vertx.setTimer(reply.tokenDelayMs, id -> writeFrames(resp, frames, i + 1, reply, done));
    } else {
      writeFrames(resp, frames, i + 1, reply, done);
    }
  }

  protected static String frame(String event, String data) {
    return (event == null ? "" : "event: " + event + "\n") + "data: " + data + "\n\n";
  }
}
