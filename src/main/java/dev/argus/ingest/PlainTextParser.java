package dev.argus.ingest;

/** Plain text: line endings normalised, trailing spaces trimmed; no title of its own. */
public final class PlainTextParser {

  private PlainTextParser() {
  }

  public static ParsedContent parse(String content) {
    String text = content.startsWith("\uFEFF") ? content.substring(1) : content;
    text = text.replace("\r\n", "\n").replace('\r', '\n').replaceAll("[ \\t]+\n", "\n").strip();
    return ParsedContent.of(null, text);
  }
}
