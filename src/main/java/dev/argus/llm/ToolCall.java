package dev.argus.llm;

import io.vertx.core.json.JsonObject;

/** A tool call the model asked for, with its parsed arguments. */
public record ToolCall(String id, String name, JsonObject arguments) {
}
