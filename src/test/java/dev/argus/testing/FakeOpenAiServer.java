package dev.argus.testing;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * A fake OpenAI-compatible {@code POST /v1/chat/completions}: plain answers, SSE chunks ({@code data:} lines,
 * {@code [DONE]}, a usage chunk when {@code stream_options.include_usage}), function tool calls whose arguments
 * are streamed in fragments by index, HTTP errors in OpenAI's error shape. See {@link FakeLlmServer}.
 */
public final class FakeOpenAiServer extends FakeLlmServer {

  private FakeOpenAiServer(Vertx vertx) {
    super(vertx);
  }

  public static Future<FakeOpenAiServer> start(Vertx vertx) {
    return new FakeOpenAiServer(vertx).listen();
  }

  @Override
  protected String path() {
    return "/v1/chat/completions";
  }

  @Override
  protected String provider() {
    return "openai";
  }

  private static String finishReason(FakeReply reply) {
    return reply.toolCalls.isEmpty() ? "stop" : "tool_calls";
  }

  private static JsonObject usage(FakeReply reply) {
    return new JsonObject().put("prompt_tokens", reply.promptTokens)
        .put("completion_tokens", reply.completionTokens())
        .put("total_tokens", reply.promptTokens + reply.completionTokens());
  }

  @Override
  protected JsonObject json(FakeReply reply, Recorded request) {
    JsonObject message = new JsonObject().put("role", "assistant")
        .put("content", reply.tokens.isEmpty() && !reply.toolCalls.isEmpty() ? null : reply.content());
    if (!reply.toolCalls.isEmpty()) {
      JsonArray calls = new JsonArray();
      reply.toolCalls.forEach(c -> calls.add(new JsonObject().put("id", c.id()).put("type", "function")
          .put("function", new JsonObject().put("name", c.name()).put("arguments", c.arguments()))));
      message.put("tool_calls", calls);
    }
    return new JsonObject()
        .put("id", "chatcmpl-fake")
        .put("object", "chat.completion")
        .put("created", System.currentTimeMillis() / 1000)
        .put("model", request.body().getString("model"))
        .put("choices", new JsonArray().add(new JsonObject().put("index", 0).put("message", message)
            .put("finish_reason", finishReason(reply))))
        .put("usage", usage(reply));
  }

  @Override
  protected JsonObject errorBody(FakeReply reply) {
    String type = reply.streamErrorType != null ? reply.streamErrorType
        : reply.status == 429 ? "rate_limit_exceeded" : reply.status >= 500 ? "server_error" : "invalid_request_error";
    String message = reply.streamErrorMessage != null ? reply.streamErrorMessage : "fake error " + reply.status;
    return new JsonObject().put("error", new JsonObject().put("message", message).put("type", type));
  }

  private static JsonObject chunk(JsonObject delta, String finishReason) {
    return new JsonObject()
        .put("id", "chatcmpl-fake")
        .put("object", "chat.completion.chunk")
        .put("choices", new JsonArray().add(new JsonObject().put("index", 0).put("delta", delta)
            .put("finish_reason", finishReason)));
  }

  @Override
  protected List<String> frames(FakeReply reply, Recorded request) {
    List<String> frames = new ArrayList<>();
    frames.add(frame(null, chunk(new JsonObject().put("role", "assistant").put("content", ""), null).encode()));
    for (String token : reply.tokens) {
      frames.add(frame(null, chunk(new JsonObject().put("content", token), null).encode()));
    }
    for (int i = 0; i < reply.toolCalls.size(); i++) {
      FakeReply.ToolCallScript call = reply.toolCalls.get(i);
      List<String> fragments = call.fragments().isEmpty() ? List.of("") : call.fragments();
      for (int f = 0; f < fragments.size(); f++) {
        JsonObject fn = new JsonObject().put("arguments", fragments.get(f));
        JsonObject tc = new JsonObject().put("index", i);
        if (f == 0) {
          tc.put("id", call.id()).put("type", "function");
          fn.put("name", call.name());
        }
        tc.put("function", fn);
        frames.add(frame(null, chunk(new JsonObject().put("tool_calls", new JsonArray().add(tc)), null).encode()));
      }
    }
    if (reply.streamErrorType != null) {
      frames.add(frame(null, errorBody(reply).encode()));
      return frames;
    }
    frames.add(frame(null, chunk(new JsonObject(), finishReason(reply)).encode()));
    JsonObject options = request.body().getJsonObject("stream_options");
    if (options != null && options.getBoolean("include_usage", false)) {
      frames.add(frame(null, new JsonObject().put("id", "chatcmpl-fake").put("object", "chat.completion.chunk")
          .put("choices", new JsonArray()).put("usage", usage(reply)).encode()));
    }
    frames.add(frame(null, "[DONE]"));
    return frames;
  }
}
