package dev.argus.ingest;

import dev.argus.config.IngestConf;
import dev.argus.ingest.SentenceSplitter.Sentence;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a document's text into chunks at sentence boundaries. A chunk grows sentence by sentence while it stays
 * within {@code targetChars}; it never exceeds {@code maxChars}. Each chunk after the first starts with the last
 * {@code overlapSentences} sentences of the previous one (fewer if they would take more than half the target or
 * push the chunk over the maximum). A sentence longer than the maximum is split at word boundaries (a single
 * word longer than the maximum is cut). Pure and CPU-bound.
 */
public final class SentenceChunker {

  private final int targetChars;
  private final int maxChars;
  private final int overlapSentences;

  public SentenceChunker(int targetChars, int maxChars, int overlapSentences) {
    if (targetChars < 1 || maxChars < targetChars || overlapSentences < 0) {
      throw new IllegalArgumentException("need 0 < targetChars <= maxChars and overlapSentences >= 0");
    }
    this.targetChars = targetChars;
    this.maxChars = maxChars;
    this.overlapSentences = overlapSentences;
  }

  public static SentenceChunker from(IngestConf conf) {
    return new SentenceChunker(conf.chunkTargetChars(), conf.chunkMaxChars(), conf.overlapSentences());
  }

  /** The chunks' texts, in order; empty for blank text. */
  public List<String> chunk(String text) {
    List<Sentence> sentences = new ArrayList<>();
    for (Sentence s : SentenceSplitter.split(text)) {
      if (s.text().length() <= maxChars) {
        sentences.add(s);
      } else {
        boolean first = s.startsParagraph();
        for (String piece : splitLong(s.text())) {
          sentences.add(new Sentence(piece, first));
          first = false;
        }
      }
    }
    List<String> chunks = new ArrayList<>();
    List<Sentence> current = new ArrayList<>();
    int fresh = 0;
    for (Sentence s : sentences) {
      if (fresh > 0 && length(current) + 1 + s.text().length() > targetChars) {
        chunks.add(join(current));
        List<Sentence> overlap = new ArrayList<>(current.subList(Math.max(0, current.size() - overlapSentences),
            current.size()));
        while (!overlap.isEmpty() && (length(overlap) > targetChars / 2
            || length(overlap) + 1 + s.text().length() > maxChars)) {
          overlap.remove(0);
        }
        current = overlap;
        fresh = 0;
      }
      current.add(s);
      fresh++;
    }
    if (fresh > 0) {
      chunks.add(join(current));
    }
    return chunks;
  }

  /** Splits an over-long sentence into pieces of at most {@code maxChars}, at spaces where possible. */
  List<String> splitLong(String sentence) {
    List<String> pieces = new ArrayList<>();
    StringBuilder piece = new StringBuilder();
    for (String word : sentence.split("\\s+")) {
      while (word.length() > maxChars) {
        if (piece.length() > 0) {
          pieces.add(piece.toString());
          piece.setLength(0);
        }
        pieces.add(word.substring(0, maxChars));
        word = word.substring(maxChars);
      }
      if (word.isEmpty()) {
        continue;
      }
      if (piece.length() > 0 && piece.length() + 1 + word.length() > maxChars) {
        pieces.add(piece.toString());
        piece.setLength(0);
      }
      if (piece.length() > 0) {
        piece.append(' ');
      }
      piece.append(word);
    }
    if (piece.length() > 0) {
      pieces.add(piece.toString());
    }
    return pieces;
  }

  private static int length(List<Sentence> sentences) {
    int n = 0;
    for (Sentence s : sentences) {
      n += s.text().length();
    }
    return n + Math.max(0, sentences.size() - 1);
  }

  /** Sentences of one line are joined by a space; a sentence that starts a new line starts a new line. */
  private static String join(List<Sentence> sentences) {
    StringBuilder sb = new StringBuilder();
    for (Sentence s : sentences) {
      if (sb.length() > 0) {
        sb.append(s.startsParagraph() ? '\n' : ' ');
      }
      sb.append(s.text());
    }
    return sb.toString();
  }
}
