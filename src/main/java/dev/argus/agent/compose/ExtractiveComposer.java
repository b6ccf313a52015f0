package dev.argus.agent.compose;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The no-LLM answer: picks the evidence sentences that answer the question and cites each one. Pure and cheap (no
 * model at question time), so a chat's first token does not wait for sentence embeddings.
 *
 * <ol>
 *   <li>Subject: when the question names things (identifiers, periods, places, names; {@link QuestionAnalysis}),
 *   only chunks that mention all of them (in their text or their document's title) may answer, so facts about one
 *   subject are never attached to another.</li>
 *   <li>Candidates: the clean sentences of those chunks ({@link Candidates}: no headings, table rows as sentences,
 *   lead-ins joined to their items, no list debris, text addressed to the assistant and markup set aside).</li>
 *   <li>Score = 0.35 x share of the question's key terms in the sentence + 0.2 x the same with its section heading
 *   and title + 0.15 if the section heading names a key term the title does not + 0.2 if it gives the kind of
 *   answer asked for (a number, a time, a step, a decision, ...) + 0.1 if
 *   it is an outcome line or in a decision section when an outcome is asked + 0.1 if it names the attribute asked
 *   for + 0.1 x share of the question's named things it mentions + 0.1 / (1 + the chunk's retrieval rank).</li>
 *   <li>A question that asks two things ("Which code ..., and how many ...?") is answered part by part.</li>
 *   <li>Selection: among the sentences that give the kind of answer asked for (all, when none does), the best
 *   sentence, then those within {@link #KEEP_WITHIN} of its score (for a procedure, the
 *   steps of the same section within half of it; a sentence of another document only when it covers at least half
 *   of the key terms itself, and no fewer than the best), skipping any whose content tokens overlap a chosen one by more
 *   than {@code redundancy} (Jaccard), at most {@code maxSentences}.</li>
 *   <li>Coherent order: documents in the order of their best sentence, then chunk order, then sentence order.</li>
 * </ol>
 */
public final class ExtractiveComposer {

  /** Sentences within this share of the best score join it. */
  static final double KEEP_WITHIN = 0.8;

  /** Settings of one composition. */
  public record Options(int maxChunks, int maxCandidates, int maxSentences, double redundancy) {
  }

  private record Candidate(EvidenceChunk chunk, Candidates.Sentence sentence, Set<String> tokens, double inSentence,
                           double score) {
  }

  public Composition compose(QuestionAnalysis q, List<EvidenceChunk> evidence, Options opt) {
    List<QuestionAnalysis> parts = q.parts();
    if (parts.size() == 1) {
      return composeOne(q, evidence, opt);
    }
    // a question that asks two things: each part answered by its own best sentences, merged without repeats
    Options each = new Options(opt.maxChunks(), opt.maxCandidates(), Math.max(1, opt.maxSentences() / parts.size()),
        opt.redundancy());
    List<Composition.Sentence> merged = new ArrayList<>();
    int candidates = 0;
    int instructionLike = 0;
    for (QuestionAnalysis part : parts) {
      QuestionAnalysis scoped = part.entities().isEmpty() && !q.entities().isEmpty() ? q.withType(part) : part;
      Composition c = composeOne(scoped, evidence, each);
      candidates = Math.max(candidates, c.candidates());
      instructionLike = Math.max(instructionLike, c.instructionLike());
      for (Composition.Sentence s : c.sentences()) {
        if (merged.stream().noneMatch(m -> m.text().equals(s.text()))) {
          merged.add(s);
        }
      }
    }
    return new Composition(merged, candidates, instructionLike);
  }

  private Composition composeOne(QuestionAnalysis q, List<EvidenceChunk> evidence, Options opt) {
    List<EvidenceChunk> chunks = evidence.stream().sorted(Comparator.comparingInt(EvidenceChunk::rank))
        .limit(opt.maxChunks()).toList();
    Set<String> entities = q.entities();
    Set<String> terms = new LinkedHashSet<>(q.keyTerms());
    terms.addAll(q.focus());
    List<Candidate> candidates = new ArrayList<>();
    int instructionLike = 0;
    outer:
    for (EvidenceChunk c : chunks) {
      if (!entities.isEmpty() && !Answerability.missingFrom(q, List.of(c)).isEmpty()) {
        continue; // about another subject
      }
      Set<String> title = Text.contentTokens(c.title());
      for (Candidates.Sentence s : Candidates.of(c.text(), c.title())) {
        if (s.instruction()) {
          instructionLike++;
          continue;
        }
        Set<String> tokens = Text.contentTokens(s.text());
        if (s.text().length() < 15 || s.text().length() > 600 || tokens.size() < 2) {
          continue;
        }
        Set<String> section = Text.contentTokens(s.section());
        Set<String> context = new HashSet<>(tokens);
        context.addAll(title);
        context.addAll(section);
        double inSentence = Text.familyCoverage(terms, tokens);
        double inContext = Text.familyCoverage(terms, context);
        // the section heading names what the question asks about ("Containment" for "how do we contain ...")
        boolean sectionMatch = terms.stream().anyMatch(t -> Text.occurs(t, section) && !Text.occurs(t, title));
        boolean focus = q.focus().stream().anyMatch(f -> Text.occurs(f, tokens));
        double named = 0;
        for (String e : entities) {
          named += QuestionAnalysis.mentions(s.text(), e) ? 1.0 / entities.size() : 0;
        }
        double score = 0.35 * inSentence + 0.2 * inContext + (sectionMatch ? 0.15 : 0)
            + (q.answeredBy(s.text(), s.step()) ? 0.2 : 0) + 0.1 * q.typeStrength(s.text(), s.section())
            + (focus ? 0.1 : 0) + 0.1 * named + 0.1 / (1 + c.rank());
        if (!terms.isEmpty() && inContext == 0 && named == 0) {
          continue; // shares nothing with the question
        }
        candidates.add(new Candidate(c, s, tokens, inSentence, score));
        if (candidates.size() >= opt.maxCandidates()) {
          break outer;
        }
      }
    }
    return select(q, candidates, opt, instructionLike);
  }

  private static Composition select(QuestionAnalysis q, List<Candidate> candidates, Options opt, int instructionLike) {
    if (candidates.isEmpty()) {
      return new Composition(List.of(), 0, instructionLike);
    }
    // when some sentences give the kind of answer asked for (a number, a step, ...), only those may answer
    if (q.type() != QuestionAnalysis.AnswerType.OTHER) {
      List<Candidate> typed = candidates.stream().filter(c -> q.answeredBy(c.sentence().text(), c.sentence().step()))
          .toList();
      if (!typed.isEmpty()) {
        candidates = new ArrayList<>(typed);
      }
    }
    candidates.sort(Comparator.comparingDouble(Candidate::score).reversed());
    Candidate best = candidates.get(0);
    boolean procedure = q.type() == QuestionAnalysis.AnswerType.PROCEDURE;
    List<Candidate> chosen = new ArrayList<>();
    chosen.add(best);
    for (Candidate c : candidates.subList(1, candidates.size())) {
      if (chosen.size() >= opt.maxSentences()) {
        break;
      }
      boolean sameSteps = procedure && c.sentence().step() && c.chunk().documentId().equals(best.chunk().documentId())
          && c.sentence().section().equals(best.sentence().section());
      if (c.score() < best.score() * (sameSteps ? 0.5 : KEEP_WITHIN)) {
        continue;
      }
      // another document joins the answer only when the sentence itself says what was asked
      if (!c.chunk().documentId().equals(best.chunk().documentId())
          && c.inSentence() < Math.max(0.5, best.inSentence())) {
        continue;
      }
      boolean redundant = false;
      for (Candidate d : chosen) {
        if (Text.jaccard(c.tokens(), d.tokens()) > opt.redundancy()) {
          redundant = true;
          break;
        }
      }
      if (!redundant) {
        chosen.add(c);
      }
    }
    Map<String, Integer> docOrder = new HashMap<>();
    for (Candidate c : chosen) {
      docOrder.putIfAbsent(c.chunk().documentId(), docOrder.size());
    }
    chosen.sort(Comparator.<Candidate>comparingInt(c -> docOrder.get(c.chunk().documentId()))
        .thenComparingInt(c -> c.chunk().chunkIndex())
        .thenComparingInt(c -> c.sentence().position()));
    List<Composition.Sentence> out = new ArrayList<>();
    for (Candidate c : chosen) {
      out.add(new Composition.Sentence(c.sentence().text(), List.of(c.chunk().key()), c.score(),
          c.sentence().section()));
    }
    return new Composition(out, candidates.size(), instructionLike);
  }
}
