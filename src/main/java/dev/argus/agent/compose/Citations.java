package dev.argus.agent.compose;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses answers with inline {@code [cite:<documentId>:<chunkIndex>]} markers into sentences and their citations. */
public final class Citations {

  /** Document ids may contain colons; the chunk index is the part after the last one. */
  public static final Pattern MARKER = Pattern.compile("\\[cite:([^\\]\\s]+):(\\d+)\\]");
  /** Anything written in the marker form, valid or not ({@code [cite:whatever]}). */
  private static final Pattern ANY_MARKER = Pattern.compile("\\[\\s*cite\\s*:[^\\]]{0,200}\\]", Pattern.CASE_INSENSITIVE);
  private static final Pattern BOUNDARY = Pattern.compile("(?<=[.!?\\]])\\s+(?!\\[cite:)");

  private Citations() {
  }

  /** One answer sentence: its text without markers and the cited keys ({@code documentId:chunkIndex}) in order. */
  public record CitedSentence(String text, List<String> citations) {
  }

  /** Text without citation markers: what a document writes in marker form is never a citation. */
  public static String stripMarkers(String text) {
    return text == null ? "" : ANY_MARKER.matcher(text).replaceAll("").replaceAll("[ \t]+([.,;:!?])", "$1")
        .replaceAll("[ \t]{2,}", " ");
  }

  /**
   * An answer cut for streaming, one piece per sentence with its markers (each piece after the first starts with
   * the whitespace before it), so that the pieces joined are the answer exactly.
   */
  public static List<String> pieces(String answer) {
    List<String> out = new ArrayList<>();
    if (answer == null || answer.isEmpty()) {
      return out;
    }
    Matcher m = BOUNDARY.matcher(answer);
    int start = 0;
    while (m.find()) {
      if (m.start() > start) {
        out.add(answer.substring(start, m.start()));
        start = m.start();
      }
    }
    out.add(answer.substring(start));
    return out;
  }

  public static List<CitedSentence> parse(String answer) {
    List<CitedSentence> out = new ArrayList<>();
    if (answer == null) {
      return out;
    }
    for (String part : BOUNDARY.split(answer.trim())) {
      if (part.isBlank()) {
        continue;
      }
      List<String> keys = new ArrayList<>();
      Matcher m = MARKER.matcher(part);
      while (m.find()) {
        String key = EvidenceChunk.key(m.group(1), Integer.parseInt(m.group(2)));
        if (!keys.contains(key)) {
          keys.add(key);
        }
      }
      String text = MARKER.matcher(part).replaceAll("").replaceAll("\\s+([.,;:!?])", "$1").replaceAll("\\s+", " ").trim();
      if (text.isEmpty() && !out.isEmpty() && !keys.isEmpty()) {
        // markers standing alone after a sentence belong to it
        CitedSentence prev = out.remove(out.size() - 1);
        List<String> merged = new ArrayList<>(prev.citations());
        keys.stream().filter(k -> !merged.contains(k)).forEach(merged::add);
        out.add(new CitedSentence(prev.text(), merged));
      } else if (!text.isEmpty()) {
        out.add(new CitedSentence(text, keys));
      }
    }
    return out;
  }
}
