package dev.argus.decide.phases;

import dev.argus.llm.LlmClient;
import dev.argus.llm.StructuredOutput;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The LLM path of the decision phases: JSON against a schema through {@link StructuredOutput} (one repair, then the
 * caller takes the rule path). Records which prompt version and model answered. Absent (no LLM, or
 * {@code decide.useLlm} false) every phase takes its rule path.
 */
public final class DecisionLlm {

  private final StructuredOutput out;
  private final String provider;
  private final String model;

  public DecisionLlm(LlmClient client, String model, boolean use) {
    this.out = client != null && client.enabled() && use ? new StructuredOutput(client) : null;
    this.provider = client == null ? "none" : client.provider();
    this.model = model;
  }

  public boolean usable() {
    return out != null;
  }

  /** Asks; on success records the prompt version and model in the context under {@code llm.prompts.<phase>}. */
  public Future<JsonObject> ask(DecisionContext ctx, String phase, String system, String user, JsonObject schema) {
    ctx.llm.put("provider", provider).put("model", model);
    ctx.llm.getJsonObject("prompts").put(phase, version(phase, system));
    return out.generate(system, user, schema);
  }

  /** {@code <phase>@<first 12 hex of sha-256 of the system prompt>}: changes whenever the prompt text does. */
  static String version(String phase, String system) {
    try {
      byte[] h = MessageDigest.getInstance("SHA-256").digest(system.getBytes(StandardCharsets.UTF_8));
      return phase + "@" + HexFormat.of().formatHex(h).substring(0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Runs the LLM path when usable, else (or when it fails) the rule path, announcing the fallback. */
  public <T> Future<T> firstOr(DecisionContext ctx, String phase, java.util.function.Supplier<Future<T>> llmPath,
                               java.util.function.Supplier<T> rules, java.util.function.Consumer<String> path) {
    if (!usable()) {
      path.accept("rules");
      return Future.succeededFuture(rules.get());
    }
    Future<T> attempt;
    try {
      attempt = llmPath.get();
    } catch (RuntimeException e) {
      attempt = Future.failedFuture(e);
    }
    return attempt.map(v -> {
      path.accept("llm");
      return v;
    }).recover(err -> {
      String reason = err.getMessage() == null ? err.getClass().getSimpleName() : err.getMessage();
      ctx.events.log(phase, phase + ": LLM " + provider + " unavailable or invalid (" + reason
          + "); used the rule-based path", true);
      ctx.llm.getJsonObject("fallbacks", new JsonObject()).put(phase, reason);
      ctx.llm.put("fallbacks", ctx.llm.getJsonObject("fallbacks", new JsonObject()).put(phase, reason));
      path.accept("rules");
      return Future.succeededFuture(rules.get());
    });
  }
}
