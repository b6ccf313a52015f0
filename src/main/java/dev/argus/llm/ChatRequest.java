package dev.argus.llm;

import java.util.List;

/** A chat completion request; {@code tools} may be empty. {@code maxTokens}/{@code temperature} may be null. */
public record ChatRequest(List<ChatMessage> messages, List<ToolSpec> tools, Double temperature, Integer maxTokens) {

  public ChatRequest {
    messages = List.copyOf(messages);
    tools = tools == null ? List.of() : List.copyOf(tools);
  }

  public static ChatRequest of(List<ChatMessage> messages) {
    return new ChatRequest(messages, List.of(), null, null);
  }
}
