package dev.argus.bench;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code argus bench-llm}: serves the benchmark's OpenAI-compatible test model ({@link BenchLlmServer#answer}) on a
 * port until stopped, for the cluster demo and the fault scripts: {@code ok} answers each phase after
 * {@code --delay-ms}; {@code down} answers 503; {@code garbage} answers 200 with text no phase can parse. The mode
 * can be switched while it runs: {@code POST /mode/<ok|down|garbage>}.
 */
@Command(name = "bench-llm", mixinStandardHelpOptions = true,
    description = "Serve an OpenAI-compatible test model (fixed delay; ok, down or garbage) for demos and fault tests.")
public final class BenchLlmServeCommand implements Callable<Integer> {

  @Option(names = "--port", defaultValue = "0", description = "port on 127.0.0.1 (0: any; default: ${DEFAULT-VALUE})")
  int port;

  @Option(names = "--delay-ms", defaultValue = "500", description = "delay before each answer (default: ${DEFAULT-VALUE})")
  long delayMs;

  @Option(names = "--mode", defaultValue = "ok", description = "ok, down or garbage (default: ${DEFAULT-VALUE})")
  String mode;

  private volatile String current;
  private Vertx vertx;

  @Override
  public Integer call() throws Exception {
    current = mode;
    vertx = Vertx.vertx();
    int bound = vertx.createHttpServer().requestHandler(this::handle).listen(port, "127.0.0.1")
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS).actualPort();
    System.out.println("bench-llm listening on http://127.0.0.1:" + bound + " (mode " + current + ", delay "
        + delayMs + " ms)");
    new CountDownLatch(1).await();
    return 0;
  }

  private void handle(HttpServerRequest req) {
    if (req.path().startsWith("/mode/")) {
      current = req.path().substring("/mode/".length());
      req.response().end(current + "\n");
      return;
    }
    req.body().onSuccess(buf -> vertx.setTimer(Math.max(1, delayMs), t -> {
      String now = current;
      if ("down".equals(now)) {
        req.response().setStatusCode(503).putHeader("Content-Type", "application/json")
            .end(new JsonObject().put("error", new JsonObject().put("message", "down").put("type", "server_error"))
                .encode());
        return;
      }
      JsonObject body;
      try {
        body = buf.toJsonObject();
      } catch (RuntimeException e) {
        req.response().setStatusCode(400).end();
        return;
      }
      JsonArray messages = body.getJsonArray("messages", new JsonArray());
      String system = messages.isEmpty() ? "" : String.valueOf(messages.getJsonObject(0).getValue("content"));
      String user = messages.size() < 2 ? "" : String.valueOf(messages.getJsonObject(messages.size() - 1)
          .getValue("content"));
      String content = "garbage".equals(now) ? "\u0000{{ not json ]] \uFFFD lorem" : BenchLlmServer.answer(system, user);
      JsonObject message = new JsonObject().put("role", "assistant").put("content", content);
      if (body.getBoolean("stream", false)) {
        req.response().putHeader("Content-Type", "text/event-stream").setChunked(true);
        req.response().write("data: " + new JsonObject().put("id", "bench").put("object", "chat.completion.chunk")
            .put("choices", new JsonArray().add(new JsonObject().put("index", 0).put("delta", message)
                .putNull("finish_reason"))).encode() + "\n\n");
        req.response().write("data: " + new JsonObject().put("id", "bench").put("object", "chat.completion.chunk")
            .put("choices", new JsonArray().add(new JsonObject().put("index", 0).put("delta", new JsonObject())
                .put("finish_reason", "stop"))).encode() + "\n\n");
        req.response().end("data: [DONE]\n\n");
      } else {
        req.response().putHeader("Content-Type", "application/json").end(new JsonObject().put("id", "bench")
            .put("object", "chat.completion").put("model", "bench").put("choices", new JsonArray().add(new JsonObject()
                .put("index", 0).put("finish_reason", "stop").put("message", message)))
            .put("usage", new JsonObject().put("prompt_tokens", 100).put("completion_tokens", 20)).encode());
      }
    }));
  }
}
