package dev.argus.agent.tools;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** A tool the Act phase can call: name, description, JSON schema of its parameters, asynchronous execution. */
public interface Tool {

  String name();

  String description();

  /** JSON Schema (draft 2020-12) of the parameters; checked before every execution. */
  JsonObject schema();

  /** Runs the tool with parameters that already passed the schema. */
  Future<JsonObject> execute(JsonObject params);

  /** A short summary of a result for the {@code tool_result} event (the full result goes into the evidence). */
  default JsonObject summarize(JsonObject result) {
    return new JsonObject();
  }
}
