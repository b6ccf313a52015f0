package dev.argus.ingest;

import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Splits text into sentences: every line break ends a sentence (headings, list items and paragraphs are
 * separate), and within a line {@link BreakIterator}'s sentence rules apply, corrected so that common
 * abbreviations ("e.g.", "i.e.", "Dr.", "U.S.", initials) do not end a sentence. Decimals such as 3.5 never
 * split because there is no space after the point.
 */
public final class SentenceSplitter {

  /** One sentence and whether it starts a new line or paragraph of the source text. */
  public record Sentence(String text, boolean startsParagraph) {
  }

  private static final Set<String> ABBREVIATIONS = Set.of("e.g.", "i.e.", "etc.", "vs.", "cf.", "al.", "dr.", "mr.",
      "mrs.", "ms.", "prof.", "inc.", "ltd.", "co.", "corp.", "jr.", "sr.", "st.", "no.", "nos.", "fig.", "figs.",
      "approx.", "dept.", "est.", "mt.", "jan.", "feb.", "mar.", "apr.", "jun.", "jul.", "aug.", "sep.", "sept.",
      "oct.", "nov.", "dec.", "a.m.", "p.m.", "u.s.", "u.k.", "e.u.", "u.n.", "ph.d.", "vol.", "pp.", "ref.");
  /** Initials and dotted acronyms: "J.", "U.S.A.". */
  private static final Pattern DOTTED = Pattern.compile("(?:\\p{L}\\.)+");

  private SentenceSplitter() {
  }

  public static List<Sentence> split(String text) {
    List<Sentence> out = new ArrayList<>();
    BreakIterator it = BreakIterator.getSentenceInstance(Locale.ENGLISH);
    for (String line : text.split("\n")) {
      String trimmed = line.strip();
      if (trimmed.isEmpty()) {
        continue;
      }
      it.setText(trimmed);
      boolean first = true;
      StringBuilder pending = new StringBuilder();
      int start = it.first();
      for (int end = it.next(); end != BreakIterator.DONE; start = end, end = it.next()) {
        String piece = trimmed.substring(start, end);
        pending.append(piece);
        if (end < trimmed.length() && endsWithAbbreviation(pending)) {
          continue;
        }
        String sentence = pending.toString().strip();
        pending.setLength(0);
        if (!sentence.isEmpty()) {
          out.add(new Sentence(sentence, first));
          first = false;
        }
      }
      String rest = pending.toString().strip();
      if (!rest.isEmpty()) {
        out.add(new Sentence(rest, first));
      }
    }
    return out;
  }

  static boolean endsWithAbbreviation(CharSequence text) {
    String s = text.toString().stripTrailing();
    int space = Math.max(s.lastIndexOf(' '), s.lastIndexOf('('));
    String last = s.substring(space + 1);
    if (!last.endsWith(".")) {
      return false;
    }
    return ABBREVIATIONS.contains(last.toLowerCase(Locale.ROOT)) || DOTTED.matcher(last).matches();
  }
}
