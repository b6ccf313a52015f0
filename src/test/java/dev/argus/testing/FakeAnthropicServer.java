package dev.argus.testing;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * A fake Anthropic {@code POST /v1/messages}: plain answers with text and {@code tool_use} blocks, and streams of
 * message_start, content_block_start / content_block_delta (text_delta, input_json_delta) / content_block_stop,
 * ping, message_delta with usage, message_stop, or an {@code error} event. See {@link FakeLlmServer}.
 */
public final class FakeAnthropicServer extends FakeLlmServer {

  private FakeAnthropicServer(Vertx vertx) {
    super(vertx);
  }

  public static Future<FakeAnthropicServer> start(Vertx vertx) {
    return new FakeAnthropicServer(vertx).listen();
  }

  @Override
  protected String path() {
    return "/v1/messages";
  }

  @Override
  protected String provider() {
    return "anthropic";
  }

  private static String stopReason(FakeReply reply) {
    return reply.toolCalls.isEmpty() ? "end_turn" : "tool_use";
  }

  @Override
  protected JsonObject json(FakeReply reply, Recorded request) {
    JsonArray content = new JsonArray();
    if (!reply.tokens.isEmpty()) {
      content.add(new JsonObject().put("type", "text").put("text", reply.content()));
    }
    reply.toolCalls.forEach(c -> content.add(new JsonObject().put("type", "tool_use").put("id", c.id())
        .put("name", c.name()).put("input", new JsonObject(c.arguments().isBlank() ? "{}" : c.arguments()))));
    return new JsonObject()
        .put("id", "msg_fake")
        .put("type", "message")
        .put("role", "assistant")
        .put("model", request.body().getString("model"))
        .put("content", content)
        .put("stop_reason", stopReason(reply))
        .put("stop_sequence", null)
        .put("usage", new JsonObject().put("input_tokens", reply.promptTokens)
            .put("output_tokens", reply.completionTokens()));
  }

  @Override
  protected JsonObject errorBody(FakeReply reply) {
    String type = reply.streamErrorType != null ? reply.streamErrorType
        : reply.status == 429 ? "rate_limit_error" : reply.status == 529 ? "overloaded_error"
        : reply.status >= 500 ? "api_error" : "invalid_request_error";
    String message = reply.streamErrorMessage != null ? reply.streamErrorMessage : "fake error " + reply.status;
    return new JsonObject().put("type", "error")
        .put("error", new JsonObject().put("type", type).put("message", message));
  }

  private static String event(String type, JsonObject data) {
    return frame(type, data.put("type", type).encode());
  }

  @Override
  protected List<String> frames(FakeReply reply, Recorded request) {
    List<String> frames = new ArrayList<>();
    frames.add(event("message_start", new JsonObject().put("message", new JsonObject()
        .put("id", "msg_fake").put("type", "message").put("role", "assistant").put("content", new JsonArray())
        .put("model", request.body().getString("model")).put("stop_reason", null)
        .put("usage", new JsonObject().put("input_tokens", reply.promptTokens).put("output_tokens", 1)))));
    int index = 0;
    if (!reply.tokens.isEmpty()) {
      frames.add(event("content_block_start", new JsonObject().put("index", index)
          .put("content_block", new JsonObject().put("type", "text").put("text", ""))));
      frames.add(event("ping", new JsonObject()));
      for (String token : reply.tokens) {
        frames.add(event("content_block_delta", new JsonObject().put("index", index)
            .put("delta", new JsonObject().put("type", "text_delta").put("text", token))));
      }
      frames.add(event("content_block_stop", new JsonObject().put("index", index)));
      index++;
    }
    for (FakeReply.ToolCallScript call : reply.toolCalls) {
      frames.add(event("content_block_start", new JsonObject().put("index", index)
          .put("content_block", new JsonObject().put("type", "tool_use").put("id", call.id())
              .put("name", call.name()).put("input", new JsonObject()))));
      for (String fragment : call.fragments()) {
        frames.add(event("content_block_delta", new JsonObject().put("index", index)
            .put("delta", new JsonObject().put("type", "input_json_delta").put("partial_json", fragment))));
      }
      frames.add(event("content_block_stop", new JsonObject().put("index", index)));
      index++;
    }
    if (reply.streamErrorType != null) {
      frames.add(frame("error", errorBody(reply).encode()));
      return frames;
    }
    frames.add(event("message_delta", new JsonObject()
        .put("delta", new JsonObject().put("stop_reason", stopReason(reply)).put("stop_sequence", null))
        .put("usage", new JsonObject().put("output_tokens", reply.completionTokens()))));
    frames.add(event("message_stop", new JsonObject()));
    return frames;
  }
}
