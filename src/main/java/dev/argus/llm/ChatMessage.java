package dev.argus.llm;

import java.util.List;

/**
 * One message of a conversation. {@code role} is {@code system}, {@code user}, {@code assistant} or
 * {@code tool}; assistant messages may carry tool calls, tool messages answer one by {@code toolCallId}.
 */
public record ChatMessage(String role, String content, List<ToolCall> toolCalls, String toolCallId) {

  public ChatMessage {
    toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
  }

  public static ChatMessage system(String content) {
    return new ChatMessage("system", content, List.of(), null);
  }

  public static ChatMessage user(String content) {
    return new ChatMessage("user", content, List.of(), null);
  }

  public static ChatMessage assistant(String content) {
    return new ChatMessage("assistant", content, List.of(), null);
  }

  public static ChatMessage tool(String toolCallId, String content) {
    return new ChatMessage("tool", content, List.of(), toolCallId);
  }
}
