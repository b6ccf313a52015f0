package dev.argus.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the JSON object in a model's answer (bare, inside a {@code ```json} fence, or surrounded by prose) and
 * validates it against a JSON schema (draft 2020-12 unless the schema says otherwise) with networknt's validator.
 */
public final class JsonSchemaCheck {

  /** The outcome: the object when valid, otherwise the errors. */
  public record Result(JsonObject value, List<String> errors) {
    public boolean valid() {
      return value != null && errors.isEmpty();
    }
  }

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
  private static final Pattern FENCE = Pattern.compile("```(?:json|JSON)?\\s*\\n?(.*?)```", Pattern.DOTALL);
  private static final int MAX_CACHED = 256;
  private static final Map<String, JsonSchema> SCHEMAS = new ConcurrentHashMap<>();

  private JsonSchemaCheck() {
  }

  /** The JSON text in {@code answer}: a fenced block's content, else from the first '{' to the last '}'. */
  public static String extract(String answer) {
    if (answer == null) {
      return "";
    }
    Matcher m = FENCE.matcher(answer);
    if (m.find()) {
      return m.group(1).strip();
    }
    int start = answer.indexOf('{');
    int end = answer.lastIndexOf('}');
    return start >= 0 && end > start ? answer.substring(start, end + 1) : answer.strip();
  }

  public static Result check(String answer, JsonObject schema) {
    String text = extract(answer);
    if (text.isEmpty()) {
      return new Result(null, List.of("the answer contains no JSON object"));
    }
    JsonNode node;
    try {
      node = MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      return new Result(null, List.of("the answer is not valid JSON: " + e.getOriginalMessage()));
    }
    if (node == null || !node.isObject()) {
      return new Result(null, List.of("the answer must be a JSON object"));
    }
    List<String> errors = schema(schema).validate(node).stream()
        .map(ValidationMessage::getMessage)
        .sorted()
        .toList();
    return errors.isEmpty() ? new Result(new JsonObject(text), List.of()) : new Result(null, errors);
  }

  private static JsonSchema schema(JsonObject schema) {
    String key = schema.encode();
    JsonSchema compiled = SCHEMAS.get(key);
    if (compiled == null) {
      try {
        compiled = FACTORY.getSchema(MAPPER.readTree(key));
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException("invalid JSON schema: " + e.getOriginalMessage(), e);
      }
      if (SCHEMAS.size() >= MAX_CACHED) {
        SCHEMAS.clear();
      }
      SCHEMAS.put(key, compiled);
    }
    return compiled;
  }
}
