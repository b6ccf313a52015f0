package dev.argus.agent.compose;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Clean candidate answer sentences from one evidence chunk. A stored chunk holds one block per line (the ingestion
 * parsers turn headings, paragraphs, list items, table rows and "Label: value" lines into lines of their own);
 * each line is read for what it is:
 * <ul>
 *   <li>headings (short lines without a verb, or the document's title) are never answers: they become the
 *   <em>section</em> of the lines below them, which counts as their context;</li>
 *   <li>a table row ({@code cell; cell; cell}, no final stop) becomes one sentence ({@code Cell, cell: cell.}); a
 *   header row (no digits, short cells) is dropped;</li>
 *   <li>a lead-in ending in a colon ("Holds are applied:") is joined to each list item that follows it;</li>
 *   <li>other lines are split into sentences; list debris (bullets, numbering) is removed and a dangling
 *   {@code ;} or {@code ,} becomes a full stop;</li>
 *   <li>sentences that address the assistant or carry markup ({@link InstructionFilter}) are set aside: they are
 *   data, never answer text.</li>
 * </ul>
 */
public final class Candidates {

  /** One candidate: clean text, its section heading (may be empty), and whether it reads as a step to take. */
  public record Sentence(String text, String section, int position, boolean step, boolean instruction) {
  }

  private static final Pattern TABLE_SEP = Pattern.compile(";\\s");
  private static final Pattern BULLET = Pattern.compile("^\\s*(?:[-*+•·]|\\d{1,2}[.)]|[a-z][.)])\\s+");
  private static final Pattern FINITE = Pattern.compile("(?i)\\b(is|are|was|were|be|been|has|have|had|must|should|can|"
      + "could|will|would|may|might|do|does|did|shall|need|needs)\\b");
  private static final Pattern LABEL = Pattern.compile("^[A-Z][\\w ()/'-]{0,40}:\\s+\\S.*");
  private static final Set<String> DETERMINERS = Set.of("the", "a", "an", "every", "each", "all", "any", "their",
      "its", "this", "that", "these", "those", "one", "both", "your", "our", "his", "her", "some", "no", "new",
      "only", "most", "many", "several", "such");
  private static final Set<String> PRONOUNS = Set.of("it", "they", "we", "you", "he", "she", "there", "here", "one");
  /** Words that open a conditional step ("If attempts concentrate on one BIN, block it"). */
  private static final Set<String> CONDITIONS = Set.of("if", "when", "where", "once", "after", "before", "unless");

  private Candidates() {
  }

  /** The candidate sentences of a chunk's text ({@code title}: its document's title, to recognise it as a heading). */
  public static List<Sentence> of(String text, String title) {
    List<Sentence> out = new ArrayList<>();
    if (text == null || text.isBlank()) {
      return out;
    }
    String section = "";
    String leadIn = null;
    int pos = 0;
    // lines of one sentence each, one after the other in a section, read as the items of a list
    List<Integer> run = new ArrayList<>();
    for (String raw : text.split("\\r?\\n")) {
      String line = Citations.stripMarkers(raw).replaceAll("\\s+", " ").trim();
      if (line.isEmpty()) {
        leadIn = null; // paragraphs of a parsed document are separated by blank lines; a run of items goes on
        continue;
      }
      boolean bulleted = BULLET.matcher(line).find();
      line = BULLET.matcher(line).replaceFirst("").trim();
      if (line.isEmpty()) {
        continue;
      }
      if (isHeading(line, title)) {
        section = line.replaceAll("[.:!?]+$", "");
        leadIn = null;
        closeRun(out, run);
        continue;
      }
      if (isTableRow(line)) {
        String row = tableRow(line);
        if (row != null) {
          out.add(candidate(row, section, ++pos, false));
        }
        closeRun(out, run);
        continue;
      }
      if (line.endsWith(":") && !LABEL.matcher(line).matches() && words(line) >= 2) {
        leadIn = line;
        closeRun(out, run);
        continue;
      }
      boolean item = bulleted || leadIn != null && (Character.isLowerCase(line.charAt(0)) || line.endsWith(";")
          || line.endsWith(","));
      if (item && leadIn != null) {
        out.add(candidate(leadIn + " " + line, section, ++pos, false));
        continue;
      }
      leadIn = null;
      List<String> sentences = Text.sentences(line);
      if (sentences.size() != 1 || LABEL.matcher(line).matches()) {
        closeRun(out, run);
      }
      for (String s : sentences) {
        if (s.endsWith("?")) {
          continue; // a question in a document is a heading or a rhetorical device, not an answer
        }
        out.add(candidate(s, section, ++pos, item || imperative(s)));
        if (sentences.size() == 1 && !LABEL.matcher(line).matches()) {
          run.add(out.size() - 1);
        }
      }
    }
    closeRun(out, run);
    return out;
  }

  /** Items of a list (two or more one-sentence lines in a row) that start like an instruction are steps. */
  private static void closeRun(List<Sentence> out, List<Integer> run) {
    if (run.size() >= 2) {
      for (int i : run) {
        Sentence s = out.get(i);
        if (!s.step() && startsLikeAStep(s.text())) {
          out.set(i, new Sentence(s.text(), s.section(), s.position(), true, s.instruction()));
        }
      }
    }
    run.clear();
  }

  /** A first word that can open an instruction: not a determiner, pronoun, adverb in -ly or plural noun. */
  static boolean startsLikeAStep(String s) {
    String first = s.split("\\s+", 2)[0].toLowerCase(Locale.ROOT).replaceAll("[^a-z-]", "");
    if (CONDITIONS.contains(first)) {
      return true;
    }
    return first.length() >= 3 && !Text.isStopWord(first) && !DETERMINERS.contains(first) && !PRONOUNS.contains(first)
        && !first.endsWith("ly") && !first.endsWith("ing") && !first.endsWith("ed")
        && !(first.endsWith("s") && !first.endsWith("ss"));
  }

  private static Sentence candidate(String text, String section, int pos, boolean step) {
    String clean = finish(text);
    return new Sentence(clean, section, pos, step, InstructionFilter.looksLikeInstruction(clean));
  }

  /** A whole sentence: no leading debris, a closing full stop instead of a dangling separator. */
  static String finish(String text) {
    String t = BULLET.matcher(text.trim()).replaceFirst("").trim();
    t = t.replaceAll("[\\s;,:\\u2013\\u2014-]+$", "");
    if (t.isEmpty()) {
      return t;
    }
    if (Character.isLowerCase(t.charAt(0))) {
      t = Character.toUpperCase(t.charAt(0)) + t.substring(1);
    }
    return t.matches("(?s).*[.!?][)\"']?$") ? t : t + ".";
  }

  /** A short line without a finite verb or comma (a section title), or the document's own title. */
  static boolean isHeading(String line, String title) {
    String bare = line.replaceAll("[.:!?]+$", "").trim();
    if (title != null && !title.isBlank()) {
      Set<String> t = Text.contentTokens(title);
      Set<String> l = Text.contentTokens(bare);
      if (!l.isEmpty() && Text.jaccard(t, l) >= 0.75) {
        return true;
      }
    }
    if (LABEL.matcher(line).matches() || line.endsWith(";") || line.endsWith(",")) {
      return false;
    }
    int n = words(bare);
    if (line.endsWith("?") && n <= 10 && !line.substring(0, line.length() - 1).matches(".*[.!?]\\s.*")) {
      return true; // a question standing alone on its line titles the section below it
    }
    return n > 0 && n <= 7 && !bare.contains(",") && !bare.matches(".*\\d.*") && !FINITE.matcher(bare).find()
        && !bare.contains("; ") && Character.isUpperCase(bare.charAt(0)) && !line.matches(".*[.!?]\\s.*");
  }

  /** Cells separated by "; " and no closing full stop: a row of a table the parser flattened. */
  static boolean isTableRow(String line) {
    return TABLE_SEP.matcher(line).find() && !line.matches(".*[.!?]$") && !LABEL.matcher(line).matches();
  }

  /** A data row as one sentence; a header row (no digits, every cell at most three words) is {@code null}. */
  static String tableRow(String line) {
    String[] cells = TABLE_SEP.split(line);
    boolean header = !line.matches(".*\\d.*");
    for (String c : cells) {
      if (words(c) > 3) {
        header = false;
      }
    }
    if (header) {
      return null;
    }
    StringBuilder sb = new StringBuilder(cells[0].trim());
    for (int i = 1; i < cells.length - 1; i++) {
      sb.append(", ").append(cells[i].trim());
    }
    if (cells.length > 1) {
      sb.append(": ").append(cells[cells.length - 1].trim());
    }
    return sb.toString();
  }

  /** Starts with a verb in the base form ("Block the attacking devices ..."): a step of a procedure. */
  static boolean imperative(String s) {
    String[] w = s.split("\\s+", 3);
    if (w.length < 2) {
      return false;
    }
    String first = w[0].toLowerCase(Locale.ROOT).replaceAll("[^a-z-]", "");
    String second = w[1].toLowerCase(Locale.ROOT).replaceAll("[^a-z-]", "");
    if (first.length() < 3 || Text.isStopWord(first) || DETERMINERS.contains(first) || first.endsWith("ly")
        || first.endsWith("ing") || first.endsWith("ed") || first.endsWith("s") && !first.endsWith("ss")) {
      return false;
    }
    return DETERMINERS.contains(second) || second.equals("or") || second.equals("and") || second.equals("it")
        || second.equals("them") || second.equals("why") || second.equals("how") || second.equals("whether");
  }

  private static int words(String s) {
    String t = s.trim();
    return t.isEmpty() ? 0 : t.split("\\s+").length;
  }
}
