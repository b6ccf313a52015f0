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
 * OpenAI-compatible {@code /v1/chat/completions} (OpenAI, vLLM, Ollama, llama.cpp server, LM Studio): plain and
 * streamed completions, function tool calls (also streamed in argument fragments), usage.
 */
public final class OpenAiChatClient extends HttpChatClient {

  public OpenAiChatClient(Vertx vertx, LlmConf conf, LlmStats stats) {
    super(vertx, conf, stats, "chat/completions");
  }

  @Override
  public String provider() {
    return LlmConf.OPENAI;
  }

  @Override
  JsonObject body(ChatRequest request, boolean stream) {
    JsonArray messages = new JsonArray();
    for (ChatMessage m : request.messages()) {
      messages.add(message(m));
    }
    JsonObject body = new JsonObject()
        .put("model", conf.model())
        .put("messages", messages)
        .put("temperature", temperature(request))
        .put("max_tokens", maxTokens(request));
    if (!request.tools().isEmpty()) {
      JsonArray tools = new JsonArray();
      for (ToolSpec t : request.tools()) {
        tools.add(new JsonObject().put("type", "function").put("function", new JsonObject()
            .put("name", t.name())
            .put("description", t.description())
            .put("parameters", t.parameters() == null ? new JsonObject().put("type", "object") : t.parameters())));
      }
      body.put("tools", tools);
    }
    if (request.jsonOutput()) {
      body.put("response_format", new JsonObject().put("type", "json_object"));
    }
    if (stream) {
      body.put("stream", true).put("stream_options", new JsonObject().put("include_usage", true));
    }
    return body;
  }

  private static JsonObject message(ChatMessage m) {
    JsonObject json = new JsonObject().put("role", m.role()).put("content", m.content());
    if (!m.toolCalls().isEmpty()) {
      JsonArray calls = new JsonArray();
      for (ToolCall c : m.toolCalls()) {
        calls.add(new JsonObject().put("id", c.id()).put("type", "function").put("function", new JsonObject()
            .put("name", c.name())
            .put("arguments", (c.arguments() == null ? new JsonObject() : c.arguments()).encode())));
      }
      json.put("tool_calls", calls);
    }
    if (m.toolCallId() != null) {
      json.put("tool_call_id", m.toolCallId());
    }
    return json;
  }

  @Override
  Request.Builder headers(Request.Builder builder) {
    if (!conf.apiKey().isEmpty()) {
      builder.header("Authorization", "Bearer " + conf.apiKey());
    }
    return builder;
  }

  @Override
  ChatResult parse(JsonObject response) {
    JsonArray choices = response.getJsonArray("choices");
    if (choices == null || choices.isEmpty()) {
      throw ProviderException.invalid(name(conf), "answered without choices", response.encode());
    }
    JsonObject choice = choices.getJsonObject(0);
    JsonObject message = choice.getJsonObject("message", new JsonObject());
    List<ToolCall> calls = new ArrayList<>();
    JsonArray toolCalls = message.getJsonArray("tool_calls");
    if (toolCalls != null) {
      for (int i = 0; i < toolCalls.size(); i++) {
        JsonObject c = toolCalls.getJsonObject(i);
        JsonObject fn = c.getJsonObject("function", new JsonObject());
        Object args = fn.getValue("arguments");
        calls.add(new ToolCall(c.getString("id"), fn.getString("name"),
            args instanceof JsonObject o ? o : arguments(args == null ? null : args.toString())));
      }
    }
    return new ChatResult(message.getString("content", ""), calls, usage(response.getJsonObject("usage")),
        choice.getString("finish_reason"));
  }

  static Usage usage(JsonObject usage) {
    if (usage == null) {
      return Usage.NONE;
    }
    return new Usage(usage.getInteger("prompt_tokens", 0), usage.getInteger("completion_tokens", 0));
  }

  @Override
  StreamDecoder decoder() {
    return new Decoder();
  }

  /** Chat-completion chunks: {@code choices[0].delta} content and tool-call fragments by index, usage, [DONE]. */
  private static final class Decoder implements StreamDecoder {

    private static final class PartialCall {
      String id;
      final StringBuilder name = new StringBuilder();
      final StringBuilder arguments = new StringBuilder();
    }

    private final StringBuilder content = new StringBuilder();
    private final Map<Integer, PartialCall> calls = new TreeMap<>();
    private Usage usage = Usage.NONE;
    private String finishReason;
    private boolean done;

    @Override
    public void onEvent(String type, String data, Consumer<String> onToken) {
      if (data == null || data.isBlank()) {
        return;
      }
      if ("[DONE]".equals(data.strip())) {
        done = true;
        return;
      }
      JsonObject chunk = new JsonObject(data);
      JsonObject error = chunk.getJsonObject("error");
      if (error != null) {
        throw ProviderException.streamError("openai LLM", 500, error.getString("type"),
            error.getString("message", error.encode()));
      }
      if (chunk.getValue("usage") instanceof JsonObject u) {
        usage = usage(u);
      }
      JsonArray choices = chunk.getJsonArray("choices");
      if (choices == null || choices.isEmpty()) {
        return;
      }
      JsonObject choice = choices.getJsonObject(0);
      if (choice.getString("finish_reason") != null) {
        finishReason = choice.getString("finish_reason");
      }
      JsonObject delta = choice.getJsonObject("delta");
      if (delta == null) {
        return;
      }
      String text = delta.getString("content");
      if (text != null && !text.isEmpty()) {
        content.append(text);
        onToken.accept(text);
      }
      JsonArray toolCalls = delta.getJsonArray("tool_calls");
      if (toolCalls != null) {
        for (int i = 0; i < toolCalls.size(); i++) {
          JsonObject c = toolCalls.getJsonObject(i);
          PartialCall call = calls.computeIfAbsent(c.getInteger("index", i), k -> new PartialCall());
          if (c.getString("id") != null) {
            call.id = c.getString("id");
          }
          JsonObject fn = c.getJsonObject("function");
          if (fn != null) {
            String name = fn.getString("name");
            if (name != null && !name.contentEquals(call.name)) {
              call.name.append(name);
            }
            Object args = fn.getValue("arguments");
            if (args instanceof JsonObject o) {
              call.arguments.append(o.encode());
            } else if (args != null) {
              call.arguments.append(args);
            }
          }
        }
      }
    }

    @Override
    public boolean finished() {
      return done;
    }

    @Override
    public boolean completeEnough() {
      return finishReason != null;
    }

    @Override
    public ChatResult result() {
      List<ToolCall> out = new ArrayList<>();
      calls.forEach((index, c) -> out.add(new ToolCall(c.id == null ? "call_" + index : c.id, c.name.toString(),
          arguments(c.arguments.toString()))));
      return new ChatResult(content.toString(), out, usage, finishReason);
    }
  }
}
