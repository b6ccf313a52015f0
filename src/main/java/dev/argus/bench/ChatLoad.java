package dev.argus.bench;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Drives chats over HTTP/SSE and times each one to its first {@code token} and to {@code final}. */
public final class ChatLoad {

  private ChatLoad() {
  }

  /** One timed chat. */
  public record Sample(String runId, double firstTokenMs, double finalMs, boolean finalSeen) {
  }

  /** {@code n} chats, {@code c} in flight, each timed from request to first token and to final. */
  public static List<Sample> run(HttpClient http, int port, List<String> questions, int n, int c) throws Exception {
    List<Sample> out = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger next = new AtomicInteger();
    List<Future<Void>> workers = new ArrayList<>();
    for (int w = 0; w < c; w++) {
      workers.add(worker(http, port, questions, n, next, out));
    }
    Future.all(workers).toCompletionStage().toCompletableFuture().get(1800, TimeUnit.SECONDS);
    return out;
  }

  private static Future<Void> worker(HttpClient http, int port, List<String> questions, int n, AtomicInteger next,
                                     List<Sample> out) {
    int i = next.getAndIncrement();
    if (i >= n) {
      return Future.succeededFuture();
    }
    return chat(http, port, questions.get(i % questions.size())).compose(s -> {
      out.add(s);
      return worker(http, port, questions, n, next, out);
    });
  }

  private static Future<Sample> chat(HttpClient http, int port, String question) {
    long start = System.nanoTime();
    Promise<Sample> done = Promise.promise();
    double[] firstToken = {-1};
    String[] runId = {null};
    StringBuilder buf = new StringBuilder();
    // The response's handlers are set in a callback on the send future itself (on the connection's event loop), so
    // that no frame can arrive before them.
    http.request(new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1").setPort(port).setURI("/api/chat")
            .putHeader("Content-Type", "application/json"))
        .compose(req -> req.send(new JsonObject().put("question", question).encode()).onSuccess(resp -> {
          resp.handler(chunk -> {
            buf.append(chunk.toString());
            int end;
            while ((end = buf.indexOf("\n\n")) >= 0) {
              String frame = buf.substring(0, end);
              buf.delete(0, end + 2);
              double ms = (System.nanoTime() - start) / 1e6;
              if (frame.contains("event: token") && firstToken[0] < 0) {
                firstToken[0] = ms;
              } else if (frame.contains("event: run") && runId[0] == null) {
                String data = frame.substring(frame.indexOf("data: ") + 6);
                runId[0] = new JsonObject(data).getString("runId");
              } else if (frame.contains("event: final") || frame.contains("event: error")) {
                done.tryComplete(new Sample(runId[0], firstToken[0] < 0 ? ms : firstToken[0], ms,
                    frame.contains("event: final")));
              }
            }
          });
          resp.endHandler(v -> done.tryComplete(new Sample(runId[0], firstToken[0], (System.nanoTime() - start) / 1e6,
              false)));
        }))
        .onFailure(done::tryFail);
    return done.future();
  }

  public static JsonObject summary(List<Sample> samples) {
    return new JsonObject()
        .put("firstTokenP50", percentile(samples.stream().map(s -> s.firstTokenMs()).toList(), 50))
        .put("firstTokenP95", percentile(samples.stream().map(s -> s.firstTokenMs()).toList(), 95))
        .put("finalP50", percentile(samples.stream().map(s -> s.finalMs()).toList(), 50))
        .put("finalP95", percentile(samples.stream().map(s -> s.finalMs()).toList(), 95))
        .put("finals", (int) samples.stream().filter(s -> s.finalSeen()).count())
        .put("chats", samples.size());
  }

  /** Nearest-rank percentile. */
  public static double percentile(List<Double> values, double p) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
  }

}
