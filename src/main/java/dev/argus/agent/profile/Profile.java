package dev.argus.agent.profile;

import dev.argus.config.AgentConf;

import dev.argus.config.ConfigException;
import dev.argus.config.Settings;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Set;

/**
 * An agent profile ({@code conf/agents/<name>.json}): which tools it may use, its prompts per phase, its limits and
 * its policies. Validated at start; a wrong profile stops start-up with a message naming the file and the key.
 */
public record Profile(String name, String description, List<String> tools, Prompts prompts, Limits limits,
                      Policies policies) {

  public static final Set<String> KNOWN_TOOLS = Set.of("knowledge_search", "get_document", "get_chunk_neighbours");

  /** The system prompt of each LLM-first phase. */
  public record Prompts(String think, String plan, String observe, String reflect, String smallTalk,
                        String noAnswer) {
  }

  /** Per-run limits. */
  public record Limits(int maxRefinements, long phaseTimeoutMs, int maxToolCalls, int topK, int neighbourHits,
                       int maxAnswerSentences, int maxEvidenceChunks, int maxCandidateSentences) {
  }

  /**
   * Decision rules. {@code minRetrievalScore}: the dense retriever's cosine similarity below which cited evidence
   * is too far from the question to answer it (0: not checked).
   */
  public record Policies(boolean useLlm, double minSupport, boolean requireCitations, double redundancyThreshold,
                         boolean smallTalk, double minRetrievalScore) {
  }

  public static Profile from(String file, JsonObject json, AgentConf conf) {
    Settings s = new Settings(file, json);
    String name = s.nonBlank("name", null);
    List<String> tools = s.strings("tools", List.of());
    if (tools.isEmpty()) {
      throw s.error("tools", "must list at least one tool");
    }
    for (String t : tools) {
      if (!KNOWN_TOOLS.contains(t)) {
        throw s.error("tools", "unknown tool '" + t + "' (known: " + KNOWN_TOOLS + ")");
      }
    }
    Settings p = new Settings(file + ".prompts", s.object("prompts", new JsonObject()));
    Prompts prompts = new Prompts(p.nonBlank("think", null), p.nonBlank("plan", null), p.nonBlank("observe", null),
        p.nonBlank("reflect", null), p.nonBlank("smallTalk", null), p.nonBlank("noAnswer", null));
    Settings l = new Settings(file + ".limits", s.object("limits", new JsonObject()));
    Limits limits = new Limits(
        l.intIn("maxRefinements", conf.maxRefinements(), 0, 10),
        l.longIn("phaseTimeoutMs", conf.phaseTimeoutMs(), 100, 600_000),
        l.intIn("maxToolCalls", 8, 1, 64),
        l.intIn("topK", 6, 1, 50),
        l.intIn("neighbourHits", 2, 0, 10),
        l.intIn("maxAnswerSentences", 5, 1, 50),
        l.intIn("maxEvidenceChunks", 8, 1, 100),
        l.intIn("maxCandidateSentences", 60, 1, 1000));
    Settings po = new Settings(file + ".policies", s.object("policies", new JsonObject()));
    Policies policies = new Policies(po.bool("useLlm", true), po.doubleIn("minSupport", 0.5, 0, 1),
        po.bool("requireCitations", true), po.doubleIn("redundancyThreshold", 0.6, 0, 1), po.bool("smallTalk", true),
        po.doubleIn("minRetrievalScore", 0.0, 0, 1));
    if (!name.matches("[a-z][a-z0-9_-]{0,63}")) {
      throw new ConfigException(file + ".name: must be a lower-case identifier, got '" + name + "'");
    }
    return new Profile(name, s.string("description", ""), List.copyOf(tools), prompts, limits, policies);
  }
}
