package dev.argus.agent.compose;

import dev.argus.embed.Embedder;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The no-LLM answer: picks the evidence sentences that best answer the question and cites each one.
 *
 * <ol>
 *   <li>Candidates: the sentences of the best {@code maxChunks} evidence chunks (at most {@code maxCandidates}),
 *   leaving out fragments and text that addresses the assistant ({@link InstructionFilter}).</li>
 *   <li>Score = 0.6 x cosine(question, sentence) (the configured {@link Embedder}) + 0.4 x share of the question's
 *   content tokens in the sentence + a small bonus for the chunk's retrieval rank.</li>
 *   <li>Greedy selection by score, skipping a sentence whose content tokens overlap an already chosen one by more
 *   than {@code redundancy} (Jaccard), keeping those within half the best score, at most {@code maxSentences}.</li>
 *   <li>Coherent order: documents in the order of their best sentence, then chunk order, then sentence order.</li>
 * </ol>
 * When the embedder fails the token overlap alone scores the sentences.
 */
public final class ExtractiveComposer {

  private final Embedder embedder;

  public ExtractiveComposer(Embedder embedder) {
    this.embedder = embedder;
  }

  /** Settings of one composition. */
  public record Options(int maxChunks, int maxCandidates, int maxSentences, double redundancy) {
  }

  private record Candidate(EvidenceChunk chunk, int position, String text, Set<String> tokens) {
  }

  public Future<Composition> compose(String question, List<EvidenceChunk> evidence, Options opt) {
    List<Candidate> candidates = new ArrayList<>();
    int instructionLike = 0;
    List<EvidenceChunk> chunks = evidence.stream().sorted(Comparator.comparingInt(EvidenceChunk::rank))
        .limit(opt.maxChunks()).toList();
    outer:
    for (EvidenceChunk c : chunks) {
      int pos = 0;
      for (String s : Text.sentences(c.text())) {
        pos++;
        if (InstructionFilter.looksLikeInstruction(s)) {
          instructionLike++;
          continue;
        }
        Set<String> tokens = Text.contentTokens(s);
        if (s.length() < 15 || s.length() > 800 || tokens.size() < 2) {
          continue;
        }
        candidates.add(new Candidate(c, pos, s, tokens));
        if (candidates.size() >= opt.maxCandidates()) {
          break outer;
        }
      }
    }
    int flagged = instructionLike;
    if (candidates.isEmpty()) {
      return Future.succeededFuture(new Composition(List.of(), 0, flagged));
    }
    Set<String> qTokens = Text.contentTokens(question);
    Future<double[]> cosines = embedder == null ? Future.succeededFuture(null)
        : embedder.embedQuery(question).compose(q -> embedder.embedPassages(candidates.stream()
            .map(Candidate::text).toList()).map(vs -> {
              double[] out = new double[vs.size()];
              for (int i = 0; i < vs.size(); i++) {
                out[i] = dot(q, vs.get(i));
              }
              return out;
            })).otherwise((double[]) null);
    return cosines.map(cos -> select(qTokens, candidates, cos, opt, flagged));
  }

  private static Composition select(Set<String> qTokens, List<Candidate> candidates, double[] cos, Options opt,
                                    int flagged) {
    double[] score = new double[candidates.size()];
    double bestOverlap = 0;
    for (int i = 0; i < candidates.size(); i++) {
      Candidate c = candidates.get(i);
      double overlap = Text.coverage(qTokens, c.tokens());
      bestOverlap = Math.max(bestOverlap, overlap);
      double rankBonus = 0.05 / (1 + c.chunk().rank());
      score[i] = cos == null ? overlap + rankBonus : 0.6 * cos[i] + 0.4 * overlap + rankBonus;
    }
    Integer[] order = new Integer[candidates.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    java.util.Arrays.sort(order, (a, b) -> Double.compare(score[b], score[a]));
    // Nothing in the evidence shares a content word with the question and the embedding is lukewarm: no answer.
    if (bestOverlap == 0 && (cos == null || cos[order[0]] < 0.6)) {
      return new Composition(List.of(), candidates.size(), flagged);
    }
    double best = score[order[0]];
    List<Integer> chosen = new ArrayList<>();
    for (int i : order) {
      if (chosen.size() >= opt.maxSentences() || score[i] < best * 0.5) {
        break;
      }
      boolean redundant = false;
      for (int j : chosen) {
        if (Text.jaccard(candidates.get(i).tokens(), candidates.get(j).tokens()) > opt.redundancy()) {
          redundant = true;
          break;
        }
      }
      if (!redundant) {
        chosen.add(i);
      }
    }
    Map<String, Integer> docOrder = new HashMap<>();
    for (int i : chosen) {
      docOrder.putIfAbsent(candidates.get(i).chunk().documentId(), docOrder.size());
    }
    chosen.sort(Comparator.<Integer>comparingInt(i -> docOrder.get(candidates.get(i).chunk().documentId()))
        .thenComparingInt(i -> candidates.get(i).chunk().chunkIndex())
        .thenComparingInt(i -> candidates.get(i).position()));
    List<Composition.Sentence> out = new ArrayList<>();
    for (int i : chosen) {
      Candidate c = candidates.get(i);
      out.add(new Composition.Sentence(c.text(), List.of(c.chunk().key()), score[i]));
    }
    return new Composition(out, candidates.size(), flagged);
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < Math.min(a.length, b.length); i++) {
      s += a[i] * b[i];
    }
    return s;
  }
}
