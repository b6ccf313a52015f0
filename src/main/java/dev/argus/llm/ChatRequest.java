package dev.argus.llm;

import java.util.List;

/**
 * A chat completion request; {@code tools} may be empty. {@code maxTokens}/{@code temperature} may be null (the
 * client's configured defaults apply). {@code jsonOutput} asks the provider for a JSON object answer where it
 * supports that natively (OpenAI {@code response_format: json_object}); the prompt must still ask for JSON.
 */
public record ChatRequest(List<ChatMessage> messages, List<ToolSpec> tools, Double temperature, Integer maxTokens,
                          boolean jsonOutput) {

  public ChatRequest {
    messages = List.copyOf(messages);
    tools = tools == null ? List.of() : List.copyOf(tools);
  }

  public ChatRequest(List<ChatMessage> messages, List<ToolSpec> tools, Double temperature, Integer maxTokens) {
    this(messages, tools, temperature, maxTokens, false);
  }

  public static ChatRequest of(List<ChatMessage> messages) {
    return new ChatRequest(messages, List.of(), null, null, false);
  }

  /** The same request asking for a JSON object answer. */
  public ChatRequest withJsonOutput() {
    return new ChatRequest(messages, tools, temperature, maxTokens, true);
  }
}
