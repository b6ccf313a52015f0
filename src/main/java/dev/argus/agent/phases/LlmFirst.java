package dev.argus.agent.phases;

import dev.argus.agent.profile.Profile;
import dev.argus.llm.ChatMessage;
import dev.argus.llm.ChatRequest;
import dev.argus.llm.ChatResult;
import dev.argus.llm.LlmClient;
import io.vertx.core.Future;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.function.Supplier;

/**
 * The LLM-first rule of every phase: use the LLM when one is configured and the profile allows it; when the call
 * fails (provider down, breaker open, unusable output) log an {@code agent_log} event, note the fallback in the
 * run and take the rule-based path instead of failing.
 */
public final class LlmFirst {

  private LlmFirst() {
  }

  public static boolean usable(LlmClient llm, Profile profile) {
    return llm != null && llm.enabled() && profile.policies().useLlm();
  }

  public static Future<PhaseResult> run(LlmClient llm, PhaseInput in, Phase phase,
                                        Supplier<Future<PhaseResult>> llmPath, Supplier<Future<PhaseResult>> rules) {
    if (!usable(llm, in.profile())) {
      return rules.get();
    }
    Future<PhaseResult> attempt;
    try {
      attempt = llmPath.get();
    } catch (RuntimeException e) {
      attempt = Future.failedFuture(e);
    }
    return attempt.recover(err -> {
      String reason = err.getMessage() == null ? err.getClass().getSimpleName() : err.getMessage();
      String note = phase.wire() + ": LLM " + llm.provider() + " unavailable (" + reason + "); used the rule-based fallback";
      in.events().log(phase, note, true);
      return rules.get().map(r -> r.withNote(note));
    });
  }

  /** Asks for a JSON object; fails when the reply has none. Usage is reported through {@code result}. */
  public static Future<ChatResult> askJson(LlmClient llm, String system, String user) {
    return llm.chat(new ChatRequest(List.of(ChatMessage.system(system), ChatMessage.user(user)), List.of(), 0.0, 800));
  }

  /** The first JSON object in a model's reply (models sometimes wrap it in prose or code fences). */
  public static JsonObject parseObject(String content) {
    if (content == null) {
      throw new IllegalArgumentException("empty reply");
    }
    int start = content.indexOf('{');
    int end = content.lastIndexOf('}');
    if (start < 0 || end <= start) {
      throw new IllegalArgumentException("the reply holds no JSON object");
    }
    try {
      return new JsonObject(content.substring(start, end + 1));
    } catch (DecodeException e) {
      throw new IllegalArgumentException("the reply is not valid JSON");
    }
  }
}
