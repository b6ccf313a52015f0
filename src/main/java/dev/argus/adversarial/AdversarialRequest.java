package dev.argus.adversarial;

import dev.argus.common.ApiException;
import dev.argus.common.Fields;
import dev.argus.config.AdversarialConf;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A run to start ({@code POST /api/adversarial/runs}, {@code argus.adversarial.runs.start}): {@code suite} is
 * {@code "all"} or a non-empty list of scenario type names; {@code size} (optional) the sellers of the synthetic
 * world, {@value AdversarialConf#MIN_SIZE}..{@code adversarial.maxSize}. Anything else is refused with a 400 naming
 * the field.
 */
public record AdversarialRequest(List<ScenarioType> suite, int size) {

  private static final Set<String> FIELDS = Set.of("suite", "size");

  public JsonObject toJson() {
    JsonArray types = new JsonArray();
    suite.forEach(t -> types.add(t.wire()));
    return new JsonObject().put("suite", types).put("size", size);
  }

  public static AdversarialRequest fromJson(JsonObject body, AdversarialConf conf) {
    if (body == null) {
      throw ApiException.badRequest("invalid_json", "request body must be a JSON object");
    }
    for (String f : body.fieldNames()) {
      if (!FIELDS.contains(f)) {
        throw ApiException.badRequest("unknown_field", "unknown field '" + f + "'; expected suite and size");
      }
    }
    Object suite = body.getValue("suite");
    List<ScenarioType> types;
    if (suite == null) {
      throw ApiException.badRequest("missing_field", "field 'suite' is required: \"all\" or a list of "
          + ScenarioType.wireNames());
    } else if ("all".equals(suite)) {
      types = List.of(ScenarioType.values());
    } else if (suite instanceof JsonArray list && !list.isEmpty() && list.size() <= ScenarioType.values().length * 2) {
      EnumSet<ScenarioType> set = EnumSet.noneOf(ScenarioType.class);
      for (Object o : list) {
        ScenarioType t = o instanceof String s ? ScenarioType.fromWire(s).orElse(null) : null;
        if (t == null) {
          throw ApiException.badRequest("invalid_field", "field 'suite' holds an unknown scenario type "
              + (o instanceof String s && s.length() <= 64 ? "'" + s + "'" : "") + "; expected \"all\" or some of "
              + ScenarioType.wireNames());
        }
        set.add(t);
      }
      types = new ArrayList<>(set);
    } else {
      throw ApiException.badRequest("invalid_field", "field 'suite' must be \"all\" or a non-empty list of "
          + ScenarioType.wireNames());
    }
    Integer size = Fields.optionalInt(body, "size", AdversarialConf.MIN_SIZE, conf.maxSize());
    return new AdversarialRequest(List.copyOf(types), size == null ? conf.defaultSize() : size);
  }
}
