package dev.argus.agent;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** A real SSE client over Vert.x's HttpClient: parses frames as they arrive, stops at a predicate or the stream's end. */
public final class SseClient {

  /** One received frame. */
  public record Event(long id, String type, JsonObject data) {
  }

  /** What was read: status, headers, the events, the comments (heartbeats) and the raw body when not SSE. */
  public record Result(int status, MultiMap headers, List<Event> events, int comments, String body) {
    public List<String> types() {
      return events.stream().map(Event::type).toList();
    }

    public Event last(String type) {
      for (int i = events.size() - 1; i >= 0; i--) {
        if (events.get(i).type().equals(type)) {
          return events.get(i);
        }
      }
      return null;
    }

    public List<Event> all(String type) {
      return events.stream().filter(e -> e.type().equals(type)).toList();
    }
  }

  private final HttpClient client;
  private final int port;

  public SseClient(Vertx vertx, int port) {
    this.client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(false), new io.vertx.core.http.PoolOptions().setHttp1MaxSize(128));
    this.port = port;
  }

  public Future<Result> post(String path, JsonObject body, Predicate<Event> stopAfter) {
    return send(HttpMethod.POST, path, body == null ? null : Buffer.buffer(body.encode()), null, stopAfter);
  }

  public Future<Result> get(String path, String lastEventId, Predicate<Event> stopAfter) {
    return send(HttpMethod.GET, path, null, lastEventId, stopAfter);
  }

  public Future<Result> postRaw(String path, String body, String contentType) {
    return client.request(new RequestOptions().setMethod(HttpMethod.POST).setPort(port).setHost("127.0.0.1")
            .setURI(path).putHeader("Content-Type", contentType))
        .compose(req -> req.send(body))
        .compose(resp -> resp.body().map(b -> new Result(resp.statusCode(), resp.headers(), List.of(), 0, b.toString())));
  }

  /**
   * Sends the request and reads SSE frames until {@code stopAfter} matches an event (then closes the connection,
   * like a client going away) or the server ends the stream.
   */
  public Future<Result> send(HttpMethod method, String path, Buffer body, String lastEventId, Predicate<Event> stopAfter) {
    RequestOptions opts = new RequestOptions().setMethod(method).setPort(port).setHost("127.0.0.1").setURI(path)
        .putHeader("Accept", "text/event-stream");
    if (body != null) {
      opts.putHeader("Content-Type", "application/json");
    }
    if (lastEventId != null) {
      opts.putHeader("Last-Event-ID", lastEventId);
    }
    // read() sets the response's handlers in a callback on the send future itself, on the connection's event loop,
    // so that a short stream cannot end before they are set (one more level of chaining could run it later).
    return client.request(opts)
        .compose(req -> (body == null ? req.send() : req.send(body)).compose(resp -> read(resp, stopAfter)));
  }

  private Future<Result> read(HttpClientResponse resp, Predicate<Event> stopAfter) {
    Promise<Result> done = Promise.promise();
    List<Event> events = new ArrayList<>();
    StringBuilder buf = new StringBuilder();
    StringBuilder raw = new StringBuilder();
    int[] comments = {0};
    boolean sse = String.valueOf(resp.getHeader("Content-Type")).startsWith("text/event-stream");
    resp.handler(chunk -> {
      String s = chunk.toString();
      raw.append(s);
      if (!sse) {
        return;
      }
      buf.append(s);
      int end;
      while ((end = buf.indexOf("\n\n")) >= 0) {
        String frame = buf.substring(0, end);
        buf.delete(0, end + 2);
        long id = -1;
        String type = "message";
        StringBuilder data = new StringBuilder();
        boolean comment = true;
        boolean hasData = false;
        for (String line : frame.split("\n")) {
          if (line.startsWith(":")) {
            continue;
          }
          comment = false;
          hasData |= line.startsWith("data:");
          if (line.startsWith("id: ")) {
            id = Long.parseLong(line.substring(4).trim());
          } else if (line.startsWith("event: ")) {
            type = line.substring(7).trim();
          } else if (line.startsWith("data: ")) {
            data.append(data.isEmpty() ? "" : "\n").append(line.substring(6));
          }
        }
        if (comment) {
          comments[0]++;
          continue;
        }
        if (!hasData) {
          continue; // a frame without data (such as a retry: hint) dispatches no event, as the SSE spec says
        }
        String d = data.toString();
        Event ev = new Event(id, type, d.startsWith("{") ? new JsonObject(d) : new JsonObject().put("raw", d));
        events.add(ev);
        if (stopAfter != null && stopAfter.test(ev)) {
          done.tryComplete(new Result(resp.statusCode(), resp.headers(), List.copyOf(events), comments[0], raw.toString()));
          resp.request().connection().close();
          return;
        }
      }
    });
    resp.endHandler(v -> done.tryComplete(new Result(resp.statusCode(), resp.headers(), List.copyOf(events), comments[0],
        raw.toString())));
    resp.exceptionHandler(err -> done.tryComplete(new Result(resp.statusCode(), resp.headers(), List.copyOf(events),
        comments[0], raw.toString())));
    return done.future();
  }

  public Future<Void> close() {
    return client.close();
  }
}
