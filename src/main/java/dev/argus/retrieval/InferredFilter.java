package dev.argus.retrieval;

import dev.argus.knowledge.MetadataCondition;
import io.vertx.core.json.JsonObject;

/**
 * One filter the self-query step read from the query text: either a namespace or a metadata condition, with
 * the phrase it came from. {@code applied} is false when an explicit filter of the request on the same key
 * (or an explicit namespace) won over it.
 */
public record InferredFilter(String phrase, String namespace, MetadataCondition condition, boolean applied) {

  public InferredFilter {
    if ((namespace == null) == (condition == null)) {
      throw new IllegalArgumentException("an inferred filter is either a namespace or a metadata condition");
    }
  }

  public static InferredFilter namespace(String phrase, String namespace) {
    return new InferredFilter(phrase, namespace, null, true);
  }

  public static InferredFilter condition(String phrase, MetadataCondition condition) {
    return new InferredFilter(phrase, null, condition, true);
  }

  public InferredFilter overridden() {
    return new InferredFilter(phrase, namespace, condition, false);
  }

  /** The key filtered on: {@code namespace} or the metadata key. */
  public String key() {
    return namespace != null ? "namespace" : condition.key();
  }

  /** {@code {key, op, value|values, phrase, applied}}, like a condition of the response plus where it came from. */
  public JsonObject toJson() {
    JsonObject json = namespace != null
        ? new JsonObject().put("key", "namespace").put("op", "eq").put("value", namespace)
        : Filters.toJson(condition);
    return json.put("phrase", phrase).put("applied", applied);
  }
}
