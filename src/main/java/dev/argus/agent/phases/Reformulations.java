package dev.argus.agent.phases;

import dev.argus.agent.compose.QuestionAnalysis;
import dev.argus.agent.compose.Text;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The searches a run may try, in order, so that a refinement or a re-plan never repeats a search that already
 * failed: the question's keywords (content words and named things), its named things and the attribute it asks
 * for, the question verbatim, then Think's query. The queries a run tried are kept in Plan's output ({@code tried}).
 */
final class Reformulations {

  private Reformulations() {
  }

  /** The queries tried so far (Plan's output keeps them across loops). */
  static Set<String> tried(PhaseInput in) {
    Set<String> out = new LinkedHashSet<>();
    for (Object q : in.output(Phase.PLAN).getJsonArray("tried", new JsonArray())) {
      out.add(String.valueOf(q).toLowerCase(Locale.ROOT).trim());
    }
    return out;
  }

  /** The first alternative that was not tried yet; the keyword form when every one was. */
  static String next(PhaseInput in) {
    String question = in.question();
    Set<String> tried = tried(in);
    List<String> alternatives = alternatives(question, in.output(Phase.THINK));
    for (String a : alternatives) {
      if (!a.isBlank() && !tried.contains(a.toLowerCase(Locale.ROOT).trim())) {
        return a;
      }
    }
    return alternatives.get(0).isBlank() ? question : alternatives.get(0);
  }

  static List<String> alternatives(String question, JsonObject think) {
    QuestionAnalysis q = QuestionAnalysis.of(question);
    Set<String> keywords = new LinkedHashSet<>();
    for (String w : Text.words(question)) {
      if (Text.contentTokens(w).size() == 1) {
        keywords.add(w);
      }
    }
    for (Object e : think.getJsonArray("entities", new JsonArray())) {
      keywords.add(String.valueOf(e));
    }
    Set<String> named = new LinkedHashSet<>(q.entities());
    for (String w : Text.words(question)) {
      if (Text.contentTokens(w).size() == 1 && q.focus().contains(Text.contentTokens(w).iterator().next())) {
        named.add(w);
      }
    }
    String thinkQuery = think.getString("query", question);
    return List.of(String.join(" ", keywords), String.join(" ", named), question.replaceAll("[?!.\\s]+$", "").trim(),
        thinkQuery == null ? question : thinkQuery);
  }
}
