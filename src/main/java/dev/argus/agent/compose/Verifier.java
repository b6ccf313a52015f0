package dev.argus.agent.compose;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rule-based Reflect check of an answer against its evidence.
 * <ul>
 *   <li>Citations to chunks that are not in the evidence are dropped and flagged (fabricated).</li>
 *   <li>A sentence is supported when at least {@code minSupport} of its content tokens occur in the chunks it
 *   validly cites; a sentence without a valid citation is unsupported when citations are required.</li>
 *   <li>Overconfidence: an absolute word (always, guaranteed, ...) the cited evidence does not use.</li>
 *   <li>Contradiction: two kept sentences about the same thing (content-token Jaccard at least 0.5) where only one
 *   is negated.</li>
 *   <li>Decision: all supported and nothing fabricated: {@code ship}; some supported: {@code revise} (unsupported
 *   sentences and fabricated citations removed); none: {@code loop} (the coordinator re-plans if it may).</li>
 *   <li>Confidence = mean support of kept sentences x sqrt(kept / checked), halved when contradictions remain.</li>
 *   <li>Verified: something kept, no contradiction, no fabricated citation (dropping one does not make the answer
 *   verified). Whether the answer answers the question is the {@link Answerability} gate's call.</li>
 * </ul>
 * An {@code externalSupport} verdict (the LLM critique) may override the token-overlap verdict per sentence.
 */
public final class Verifier {

  private static final Set<String> ABSOLUTES = Set.of("always", "never", "guaranteed", "guarantee", "definitely",
      "certainly", "undoubtedly", "100%", "impossible", "every", "absolutely");

  private final double minSupport;
  private final boolean requireCitations;

  public Verifier(double minSupport, boolean requireCitations) {
    this.minSupport = minSupport;
    this.requireCitations = requireCitations;
  }

  public Verification verify(String answer, Map<String, EvidenceChunk> evidence) {
    return verify(answer, evidence, null);
  }

  /** {@code externalSupport}: per sentence index, the critique's verdict (null entries fall back to overlap). */
  public Verification verify(String answer, Map<String, EvidenceChunk> evidence, List<Boolean> externalSupport) {
    List<Citations.CitedSentence> parsed = Citations.parse(answer);
    List<Verification.SentenceCheck> checks = new ArrayList<>();
    List<String> fabricated = new ArrayList<>();
    List<String> overconfident = new ArrayList<>();
    for (int i = 0; i < parsed.size(); i++) {
      Citations.CitedSentence s = parsed.get(i);
      List<String> valid = new ArrayList<>();
      for (String key : s.citations()) {
        if (evidence.containsKey(key)) {
          valid.add(key);
        } else if (!fabricated.contains(key)) {
          fabricated.add(key);
        }
      }
      Set<String> tokens = Text.contentTokens(s.text());
      Set<String> cited = new HashSet<>();
      Set<String> citedWords = new HashSet<>();
      for (String key : valid) {
        cited.addAll(Text.contentTokens(evidence.get(key).text()));
        citedWords.addAll(Text.words(evidence.get(key).text()));
      }
      double support = Text.coverage(tokens, cited);
      boolean supported;
      String reason;
      if (valid.isEmpty() && requireCitations) {
        supported = false;
        reason = s.citations().isEmpty() ? "no citation" : "only fabricated citations";
      } else {
        Boolean ext = externalSupport != null && i < externalSupport.size() ? externalSupport.get(i) : null;
        supported = ext != null ? ext : support >= minSupport;
        reason = ext != null ? (ext ? "critique: supported" : "critique: not supported")
            : supported ? "overlap" : "overlap below " + minSupport;
      }
      if (supported) {
        for (String w : Text.words(s.text())) {
          if (ABSOLUTES.contains(w) && !citedWords.contains(w)) {
            overconfident.add(s.text());
            supported = false;
            reason = "unjustified '" + w + "'";
            break;
          }
        }
      }
      checks.add(new Verification.SentenceCheck(s.text(), valid, support, supported, reason));
    }
    List<Verification.SentenceCheck> kept = checks.stream().filter(Verification.SentenceCheck::supported).toList();
    List<String> contradictions = contradictions(kept);
    String decision = kept.isEmpty() ? Verification.LOOP
        : kept.size() == checks.size() && fabricated.isEmpty() ? Verification.SHIP : Verification.REVISE;
    StringBuilder revised = new StringBuilder();
    Set<String> usedKeys = new LinkedHashSet<>();
    double supportSum = 0;
    for (Verification.SentenceCheck c : kept) {
      if (!revised.isEmpty()) {
        revised.append(' ');
      }
      revised.append(c.text());
      for (String key : c.citations()) {
        EvidenceChunk e = evidence.get(key);
        revised.append(' ').append(e.marker());
        usedKeys.add(key);
      }
      supportSum += c.support();
    }
    double confidence = kept.isEmpty() ? 0
        : (supportSum / kept.size()) * Math.sqrt((double) kept.size() / checks.size());
    if (!contradictions.isEmpty()) {
      confidence /= 2;
    }
    JsonArray citations = new JsonArray();
    for (String key : usedKeys) {
      EvidenceChunk e = evidence.get(key);
      citations.add(new JsonObject().put("documentId", e.documentId()).put("chunkIndex", e.chunkIndex())
          .put("title", e.title()).put("snippet", snippet(e.text())).put("evidenceIndex", e.evidenceIndex()));
    }
    // a fabricated citation means the answer claimed support it does not have: not verified, even once dropped
    boolean verified = !kept.isEmpty() && contradictions.isEmpty() && fabricated.isEmpty();
    return new Verification(decision, revised.toString(), checks, fabricated, contradictions, overconfident,
        verified, Math.max(0, Math.min(1, confidence)), citations, "rules");
  }

  private static List<String> contradictions(List<Verification.SentenceCheck> kept) {
    List<String> out = new ArrayList<>();
    int n = Math.min(kept.size(), 60); // pairwise: bounded so that a very long answer stays cheap
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        String a = kept.get(i).text();
        String b = kept.get(j).text();
        if (Text.hasNegation(a) != Text.hasNegation(b)
            && Text.jaccard(Text.contentTokens(a), Text.contentTokens(b)) >= 0.5) {
          out.add(a + " <> " + b);
        }
      }
    }
    return out;
  }

  public static String snippet(String text) {
    String flat = text == null ? "" : text.replaceAll("\\s+", " ").trim();
    return flat.length() <= 240 ? flat : flat.substring(0, 237) + "...";
  }
}
