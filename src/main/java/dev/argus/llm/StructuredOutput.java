package dev.argus.llm;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Asks the model for a JSON object matching a JSON schema: the schema goes into the system prompt (and
 * {@code response_format: json_object} for OpenAI-compatible providers), the answer is extracted and validated,
 * and an invalid answer gets exactly one repair request carrying the invalid output, the validation errors and the
 * schema. Counts {@code attempts}, {@code repairs}, {@code repairFailures} and {@code fallbacks} (any request that
 * ends without a valid object, so the caller falls back) in the client's {@link LlmStats}.
 */
public final class StructuredOutput {

  private final LlmClient client;
  private final LlmStats stats;

  public StructuredOutput(LlmClient client) {
    this(client, client.stats());
  }

  public StructuredOutput(LlmClient client, LlmStats stats) {
    this.client = client;
    this.stats = stats;
  }

  public LlmStats stats() {
    return stats;
  }

  public Future<JsonObject> generate(String system, String user, JsonObject schema) {
    List<ChatMessage> messages = new ArrayList<>();
    if (system != null && !system.isBlank()) {
      messages.add(ChatMessage.system(system));
    }
    messages.add(ChatMessage.user(user));
    return generate(messages, schema);
  }

  /**
   * Completes with the valid object, or fails with {@link StructuredOutputException} (still invalid after the
   * repair) or {@link LlmUnavailableException} (no provider, provider down).
   */
  public Future<JsonObject> generate(List<ChatMessage> messages, JsonObject schema) {
    return generateWithUsage(messages, schema).map(Result::value);
  }

  /** A valid object and the tokens its request (and repair, if any) used. */
  public record Result(JsonObject value, Usage usage) {
  }

  /** As {@link #generate(List, JsonObject)}, with the token usage of the request and of the repair. */
  public Future<Result> generateWithUsage(List<ChatMessage> messages, JsonObject schema) {
    stats.recordAttempt();
    if (!client.enabled()) {
      stats.recordFallback();
      return Future.failedFuture(new LlmUnavailableException("no LLM configured"));
    }
    List<ChatMessage> prompt = withSchema(messages, schema);
    return client.chat(new ChatRequest(prompt, List.of(), null, null, true))
        .compose(first -> {
          JsonSchemaCheck.Result check = JsonSchemaCheck.check(first.content(), schema);
          if (check.valid()) {
            return Future.succeededFuture(new Result(check.value(), first.usage()));
          }
          stats.recordRepair();
          List<ChatMessage> repair = new ArrayList<>(prompt);
          repair.add(ChatMessage.assistant(first.content()));
          repair.add(ChatMessage.user(repairPrompt(first.content(), check.errors(), schema)));
          return client.chat(new ChatRequest(repair, List.of(), 0.0, null, true)).compose(second -> {
            JsonSchemaCheck.Result again = JsonSchemaCheck.check(second.content(), schema);
            if (again.valid()) {
              return Future.succeededFuture(new Result(again.value(), first.usage().plus(second.usage())));
            }
            stats.recordRepairFailure();
            return Future.failedFuture(new StructuredOutputException(
                "the model's answer does not match the JSON schema after one repair: "
                    + String.join("; ", again.errors()), again.errors(), second.content()));
          });
        })
        .onFailure(err -> stats.recordFallback());
  }

  static List<ChatMessage> withSchema(List<ChatMessage> messages, JsonObject schema) {
    String instruction = "Answer with a single JSON object and nothing else (no prose, no Markdown). "
        + "It must match this JSON schema:\n" + schema.encodePrettily();
    List<ChatMessage> out = new ArrayList<>();
    if (!messages.isEmpty() && "system".equals(messages.get(0).role())) {
      out.add(ChatMessage.system(messages.get(0).content() + "\n\n" + instruction));
      out.addAll(messages.subList(1, messages.size()));
    } else {
      out.add(ChatMessage.system(instruction));
      out.addAll(messages);
    }
    return out;
  }

  static String repairPrompt(String invalid, List<String> errors, JsonObject schema) {
    StringBuilder sb = new StringBuilder("Your previous answer is not valid.\nInvalid answer:\n")
        .append(invalid == null ? "" : invalid)
        .append("\n\nValidation errors:\n");
    for (String e : errors) {
      sb.append("- ").append(e).append('\n');
    }
    return sb.append("\nReply with only the corrected JSON object matching this JSON schema:\n")
        .append(schema.encodePrettily()).toString();
  }
}
