package dev.argus.eval.score;

import io.vertx.core.json.JsonObject;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The lexical scores of a chat answer, without an LLM (all in 0..1, {@link Terms} are the content terms):
 * <ul>
 *   <li>context relevance: mean over retrieved chunks of the share of question terms the chunk contains;</li>
 *   <li>answer relevance: share of question terms the answer contains;</li>
 *   <li>groundedness: share of answer sentences supported by their cited chunks (the cited chunks together
 *       contain at least {@link #SUPPORT} of the sentence's terms; a sentence without citations is unsupported);</li>
 *   <li>faithfulness: share of the answer's terms found anywhere in the retrieved context;</li>
 *   <li>citation precision: share of (sentence, citation) pairs whose chunk was retrieved and alone contains at
 *       least {@link #SUPPORT} of the sentence's terms;</li>
 *   <li>context precision: average precision of the retrieval order, a chunk being relevant when the answer cites
 *       it ({@code Σ P@k over relevant positions k / #relevant}; 0 when nothing retrieved is cited);</li>
 *   <li>coherence: share of sentences after the first that share a term with the question or an earlier sentence
 *       and are not a repeat of an earlier sentence (1 for a one-sentence answer).</li>
 * </ul>
 * A refusal ({@code no_answer}) is scored on its context relevance only; small talk is not scored.
 */
public final class ChatScores {

  /** Share of a sentence's terms its evidence must contain to support it. */
  public static final double SUPPORT = 0.5;

  private ChatScores() {
  }

  public static Scorecard score(ChatRunView run) {
    Map<Metric, Double> m = new EnumMap<>(Metric.class);
    JsonObject notes = new JsonObject();
    Set<String> q = Terms.of(run.question());
    Map<String, Set<String>> chunkTerms = new HashMap<>();
    Set<String> allContext = new HashSet<>();
    for (ChatRunView.ContextChunk c : run.context()) {
      Set<String> t = Terms.of(c.text());
      chunkTerms.put(c.key(), t);
      allContext.addAll(t);
    }
    if (!run.context().isEmpty() && !q.isEmpty()) {
      double sum = 0;
      for (ChatRunView.ContextChunk c : run.context()) {
        sum += Terms.coverage(q, chunkTerms.get(c.key()));
      }
      m.put(Metric.CONTEXT_RELEVANCE, sum / run.context().size());
    } else {
      m.put(Metric.CONTEXT_RELEVANCE, 0.0);
      notes.put("contextRelevance", run.context().isEmpty() ? "nothing retrieved" : "no content terms in the question");
    }
    if ("smalltalk".equals(run.kind())) {
      return new Scorecard(Map.of(), notes.put("skipped", "small talk is not scored"));
    }
    if (run.refused()) {
      notes.put("answer", "refused (no_answer): only the context is scored");
      return Scorecard.withAggregate(m, notes);
    }
    List<ChatRunView.Sentence> sentences = run.sentences();
    Set<String> answerTerms = new LinkedHashSet<>();
    for (ChatRunView.Sentence s : sentences) {
      answerTerms.addAll(Terms.of(s.text()));
    }
    m.put(Metric.ANSWER_RELEVANCE, Terms.coverage(q, answerTerms));
    m.put(Metric.FAITHFULNESS, Terms.coverage(answerTerms, allContext));

    int supported = 0;
    int pairs = 0;
    int goodPairs = 0;
    Set<String> cited = new HashSet<>();
    for (ChatRunView.Sentence s : sentences) {
      Set<String> st = Terms.of(s.text());
      Set<String> union = new HashSet<>();
      for (String key : new LinkedHashSet<>(s.citations())) {
        cited.add(key);
        Set<String> ct = chunkTerms.get(key);
        pairs++;
        if (ct != null) {
          union.addAll(ct);
          if (Terms.coverage(st, ct) >= SUPPORT) {
            goodPairs++;
          }
        }
      }
      if (!s.citations().isEmpty() && Terms.coverage(st, union) >= SUPPORT) {
        supported++;
      }
    }
    m.put(Metric.GROUNDEDNESS, sentences.isEmpty() ? 0.0 : (double) supported / sentences.size());
    if (pairs > 0) {
      m.put(Metric.CITATION_PRECISION, (double) goodPairs / pairs);
    } else {
      m.put(Metric.CITATION_PRECISION, 0.0);
      notes.put("citationPrecision", "the answer cites nothing");
    }
    m.put(Metric.CONTEXT_PRECISION, averagePrecision(run.context(), cited));
    m.put(Metric.COHERENCE, coherence(q, sentences));
    return Scorecard.withAggregate(m, notes);
  }

  static double averagePrecision(List<ChatRunView.ContextChunk> context, Set<String> relevant) {
    int hits = 0;
    double sum = 0;
    for (int k = 0; k < context.size(); k++) {
      if (relevant.contains(context.get(k).key())) {
        hits++;
        sum += (double) hits / (k + 1);
      }
    }
    return hits == 0 ? 0.0 : sum / hits;
  }

  static double coherence(Set<String> question, List<ChatRunView.Sentence> sentences) {
    if (sentences.isEmpty()) {
      return 0.0;
    }
    if (sentences.size() == 1) {
      return 1.0;
    }
    Set<String> seenTerms = new HashSet<>(question);
    Set<String> seenSentences = new HashSet<>();
    seenTerms.addAll(Terms.of(sentences.get(0).text()));
    seenSentences.add(normal(sentences.get(0).text()));
    int ok = 0;
    for (int i = 1; i < sentences.size(); i++) {
      String text = sentences.get(i).text();
      Set<String> t = Terms.of(text);
      boolean linked = false;
      for (String term : t) {
        if (seenTerms.contains(term)) {
          linked = true;
          break;
        }
      }
      if (linked && seenSentences.add(normal(text))) {
        ok++;
      }
      seenTerms.addAll(t);
    }
    return (double) ok / (sentences.size() - 1);
  }

  private static String normal(String s) {
    return String.join(" ", Terms.of(s));
  }
}
