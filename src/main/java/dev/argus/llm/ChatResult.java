package dev.argus.llm;

import java.util.List;

/** A completed chat call: the text (never null, empty when the model only called tools), any tool calls, usage, and the provider's finish reason. */
public record ChatResult(String content, List<ToolCall> toolCalls, Usage usage, String finishReason) {

  public ChatResult {
    content = content == null ? "" : content;
    toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    usage = usage == null ? Usage.NONE : usage;
  }
}
