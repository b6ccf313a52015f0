package dev.argus.testing;

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
 * The scaffolding of every fake provider in the tests: a real HTTP server on 127.0.0.1 (random port) serving one
 * JSON {@code POST} path. Replies ({@link FakeReply}) come from a FIFO script ({@link #enqueue}), then from a
 * responder function ({@link #respondWith}); each may be delayed, be an HTTP error with headers and a body, a
 * verbatim body, or a server-sent-event stream with pauses and a dropped connection. Every request is recorded, and
 * the number of requests answered at the same time is tracked. A subclass speaks one wire protocol: how a reply
 * becomes a JSON answer, an error body and stream frames.
 *
 * <pre>
 * FakeOpenAiServer server = FakeOpenAiServer.start(vertx).await();   // on the test thread
 * server.enqueue(FakeReply.error(500), FakeReply.text("Hello world").usage(7, 2));
 * server.respondWith(req -> FakeReply.text("echo " + req.lastUserText()));
 * ...
 * server.requests().get(0).body();       // the JSON the client sent; headers(), path(), stream()
 * server.maxConcurrent();
 * </pre>
 */
public abstract class FakeHttpServer {

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

  protected FakeHttpServer(Vertx vertx) {
    this.vertx = vertx;
  }

  /** The path the provider serves, e.g. {@code /v1/chat/completions}. */
  protected abstract String path();

  /** The plain JSON answer. */
  protected abstract JsonObject json(FakeReply reply, Recorded request);

  /** The error body of an HTTP error. */
  protected abstract JsonObject errorBody(FakeReply reply);

  /**
   * The SSE frames of a streamed answer (a request with {@code "stream": true}), each complete ({@code event:} and
   * {@code data:} lines and a blank line); a protocol without streaming keeps this default.
   */
  protected List<String> frames(FakeReply reply, Recorded request) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " does not stream");
  }

  @SuppressWarnings("unchecked")
  protected <S extends FakeHttpServer> Future<S> listen() {
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

  /** Appends replies to the script; each request takes the next one. */
  public FakeHttpServer enqueue(FakeReply... replies) {
    script.addAll(List.of(replies));
    return this;
  }

  /** Answers requests when the script is empty. */
  public FakeHttpServer respondWith(Function<Recorded, FakeReply> responder) {
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
    if (reply.body != null) {
      resp.putHeader("Content-Type", "application/json").end(reply.body);
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
