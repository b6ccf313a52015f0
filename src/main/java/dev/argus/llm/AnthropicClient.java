package dev.argus.llm;

import dev.argus.config.LlmConf;
import dev.argus.provider.ProviderException;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import okhttp3.Request;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Anthropic Messages API {@code /v1/messages}: the system prompt travels apart from the messages, tool calls are
 * {@code tool_use} blocks and tool results {@code tool_result} blocks of a user message; plain and streamed
 * (message_start, content_block_start/delta/stop with text_delta and input_json_delta, message_delta with usage,
 * message_stop, error).
 */
public final class AnthropicClient extends HttpChatClient {

  static final String VERSION = "2023-06-01";

  public AnthropicClient(Vertx vertx, LlmConf conf, LlmStats stats) {
    super(vertx, conf, stats, "messages");
  }

  @Override
  public String provider() {
    return LlmConf.ANTHROPIC;
  }

  @Override
  JsonObject body(ChatRequest request, boolean stream) {
    StringBuilder system = new StringBuilder();
    JsonArray messages = new JsonArray();
    for (ChatMessage m : request.messages()) {
      switch (m.role()) {
        case "system" -> system.append(system.length() == 0 ? "" : "\n\n").append(m.content());
        case "assistant" -> messages.add(assistant(m));
        case "tool" -> addToolResult(messages, m);
        default -> messages.add(new JsonObject().put("role", "user").put("content", m.content() == null ? "" : m.content()));
      }
    }
    JsonObject body = new JsonObject()
        .put("model", conf.model())
        .put("max_tokens", maxTokens(request))
        .put("temperature", Math.min(1.0, temperature(request)))
        .put("messages", messages);
    if (system.length() > 0) {
      body.put("system", system.toString());
    }
    if (!request.tools().isEmpty()) {
      JsonArray tools = new JsonArray();
      for (ToolSpec t : request.tools()) {
        tools.add(new JsonObject()
            .put("name", t.name())
            .put("description", t.description())
            .put("input_schema", t.parameters() == null ? new JsonObject().put("type", "object") : t.parameters()));
      }
      body.put("tools", tools);
    }
    if (stream) {
      body.put("stream", true);
    }
    return body;
  }

  private static JsonObject assistant(ChatMessage m) {
    if (m.toolCalls().isEmpty()) {
      return new JsonObject().put("role", "assistant").put("content", m.content() == null ? "" : m.content());
    }
    JsonArray content = new JsonArray();
    if (m.content() != null && !m.content().isBlank()) {
      content.add(new JsonObject().put("type", "text").put("text", m.content()));
    }
    for (ToolCall c : m.toolCalls()) {
      content.add(new JsonObject().put("type", "tool_use").put("id", c.id()).put("name", c.name())
          .put("input", c.arguments() == null ? new JsonObject() : c.arguments()));
    }
    return new JsonObject().put("role", "assistant").put("content", content);
  }

  /** Tool results are blocks of one user message; consecutive results share it. */
  private static void addToolResult(JsonArray messages, ChatMessage m) {
    JsonObject block = new JsonObject().put("type", "tool_result").put("tool_use_id", m.toolCallId())
        .put("content", m.content() == null ? "" : m.content());
    if (!messages.isEmpty()) {
      JsonObject last = messages.getJsonObject(messages.size() - 1);
      if ("user".equals(last.getString("role")) && last.getValue("content") instanceof JsonArray blocks
          && !blocks.isEmpty() && "tool_result".equals(blocks.getJsonObject(0).getString("type"))) {
        blocks.add(block);
        return;
      }
    }
    messages.add(new JsonObject().put("role", "user").put("content", new JsonArray().add(block)));
  }

  @Override
  Request.Builder headers(Request.Builder builder) {
    if (!conf.apiKey().isEmpty()) {
      builder.header("x-api-key", conf.apiKey());
    }
    return builder.header("anthropic-version", VERSION);
  }

  @Override
  ChatResult parse(JsonObject response) {
    JsonArray content = response.getJsonArray("content");
    if (content == null) {
      throw ProviderException.invalid(name(conf), "answered without content", response.encode());
    }
    StringBuilder text = new StringBuilder();
    List<ToolCall> calls = new ArrayList<>();
    for (int i = 0; i < content.size(); i++) {
      JsonObject block = content.getJsonObject(i);
      if ("text".equals(block.getString("type"))) {
        text.append(block.getString("text", ""));
      } else if ("tool_use".equals(block.getString("type"))) {
        calls.add(new ToolCall(block.getString("id"), block.getString("name"),
            block.getJsonObject("input", new JsonObject())));
      }
    }
    JsonObject usage = response.getJsonObject("usage", new JsonObject());
    return new ChatResult(text.toString(), calls,
        new Usage(usage.getInteger("input_tokens", 0), usage.getInteger("output_tokens", 0)),
        response.getString("stop_reason"));
  }

  @Override
  StreamDecoder decoder() {
    return new Decoder();
  }

  private static final class Decoder implements StreamDecoder {

    private static final class Block {
      String type;
      String id;
      String name;
      JsonObject input;
      final StringBuilder json = new StringBuilder();
    }

    private final StringBuilder content = new StringBuilder();
    private final Map<Integer, Block> blocks = new TreeMap<>();
    private int inputTokens;
    private int outputTokens;
    private String stopReason;
    private boolean done;

    @Override
    public void onEvent(String type, String data, Consumer<String> onToken) {
      if (data == null || data.isBlank()) {
        return;
      }
      JsonObject event = new JsonObject(data);
      String kind = event.getString("type", type);
      switch (kind == null ? "" : kind) {
        case "message_start" -> {
          JsonObject usage = event.getJsonObject("message", new JsonObject()).getJsonObject("usage");
          if (usage != null) {
            inputTokens = usage.getInteger("input_tokens", inputTokens);
            outputTokens = usage.getInteger("output_tokens", outputTokens);
          }
        }
        case "content_block_start" -> {
          JsonObject cb = event.getJsonObject("content_block", new JsonObject());
          Block block = new Block();
          block.type = cb.getString("type");
          block.id = cb.getString("id");
          block.name = cb.getString("name");
          block.input = cb.getJsonObject("input");
          blocks.put(event.getInteger("index", blocks.size()), block);
          String text = cb.getString("text");
          if ("text".equals(block.type) && text != null && !text.isEmpty()) {
            content.append(text);
            onToken.accept(text);
          }
        }
        case "content_block_delta" -> {
          JsonObject delta = event.getJsonObject("delta", new JsonObject());
          if ("text_delta".equals(delta.getString("type"))) {
            String text = delta.getString("text", "");
            if (!text.isEmpty()) {
              content.append(text);
              onToken.accept(text);
            }
          } else if ("input_json_delta".equals(delta.getString("type"))) {
            Block block = blocks.get(event.getInteger("index", -1));
            if (block != null) {
              block.json.append(delta.getString("partial_json", ""));
            }
          }
        }
        case "message_delta" -> {
          JsonObject delta = event.getJsonObject("delta", new JsonObject());
          if (delta.getString("stop_reason") != null) {
            stopReason = delta.getString("stop_reason");
          }
          JsonObject usage = event.getJsonObject("usage");
          if (usage != null) {
            outputTokens = usage.getInteger("output_tokens", outputTokens);
            inputTokens = usage.getInteger("input_tokens", inputTokens);
          }
        }
        case "message_stop" -> done = true;
        case "error" -> {
          JsonObject error = event.getJsonObject("error", new JsonObject());
          String errorType = error.getString("type", "api_error");
          int status = switch (errorType) {
            case "overloaded_error" -> 529;
            case "rate_limit_error" -> 429;
            case "api_error" -> 500;
            default -> 400;
          };
          throw ProviderException.streamError("anthropic LLM", status, errorType, error.getString("message", ""));
        }
        default -> {
          // ping, content_block_stop and future event types carry nothing we need
        }
      }
    }

    @Override
    public boolean finished() {
      return done;
    }

    @Override
    public boolean completeEnough() {
      return stopReason != null;
    }

    @Override
    public ChatResult result() {
      List<ToolCall> calls = new ArrayList<>();
      for (Block b : blocks.values()) {
        if ("tool_use".equals(b.type)) {
          JsonObject input = b.json.length() > 0 ? arguments(b.json.toString())
              : b.input == null ? new JsonObject() : b.input;
          calls.add(new ToolCall(b.id, b.name, input));
        }
      }
      return new ChatResult(content.toString(), calls, new Usage(inputTokens, outputTokens), stopReason);
    }
  }
}
