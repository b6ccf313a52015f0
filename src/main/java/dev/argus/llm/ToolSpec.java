package dev.argus.llm;

import io.vertx.core.json.JsonObject;

/** A tool offered to the model: name, description and the JSON schema of its parameters. */
public record ToolSpec(String name, String description, JsonObject parameters) {
}
