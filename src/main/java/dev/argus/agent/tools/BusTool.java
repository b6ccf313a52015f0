package dev.argus.agent.tools;

import dev.argus.bus.InRun;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.function.BinaryOperator;
import java.util.function.UnaryOperator;

/**
 * A tool that is one request on the event bus: its parameters become the request body, the reply (with the request
 * it answers) becomes the result. What a tool is — name, description, schema, address and the three mappings — is a
 * {@link Spec}; {@link KnowledgeTools} holds the knowledge tools'.
 */
public final class BusTool implements Tool {

  /**
   * One bus-backed tool.
   *
   * @param request the request body for parameters that passed the schema
   * @param result  the tool's result from the request and the reply body
   * @param summary the short summary of a result for the {@code tool_result} event
   */
  public record Spec(String name, String description, JsonObject schema, String address, UnaryOperator<JsonObject> request,
                     BinaryOperator<JsonObject> result, UnaryOperator<JsonObject> summary) {
  }

  private final Vertx vertx;
  private final Spec spec;
  private final long timeoutMs;

  public BusTool(Vertx vertx, Spec spec, long timeoutMs) {
    this.vertx = vertx;
    this.spec = spec;
    this.timeoutMs = timeoutMs;
  }

  @Override
  public String name() {
    return spec.name();
  }

  @Override
  public String description() {
    return spec.description();
  }

  @Override
  public JsonObject schema() {
    return spec.schema().copy();
  }

  /** Sends the request to the spec's address within the tool timeout; a failure reply fails the call as it is. */
  @Override
  public Future<JsonObject> execute(JsonObject params) {
    JsonObject request = spec.request().apply(params);
    return vertx.eventBus().<JsonObject>request(spec.address(), request, InRun.delivery(timeoutMs))
        .map(reply -> spec.result().apply(request, reply.body()));
  }

  @Override
  public JsonObject summarize(JsonObject result) {
    return spec.summary().apply(result);
  }

  @Override
  public String toString() {
    return "BusTool[" + spec.name() + " -> " + spec.address() + "]";
  }
}
