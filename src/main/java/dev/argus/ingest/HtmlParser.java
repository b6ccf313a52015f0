package dev.argus.ingest;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;

import java.util.Set;

/**
 * HTML to clean text with jsoup: scripts, styles, navigation, footers and other non-content elements are
 * dropped; block elements become paragraph breaks, {@code <br>} a line break; headings end with a full stop so
 * they read as sentences. The title is {@code <title>}, or else the first {@code <h1>}.
 */
public final class HtmlParser {

  private static final String DROP = "script, style, noscript, template, nav, footer, iframe, "
      + "svg, canvas, form, button, select, head";
  private static final Set<String> BLOCKS = Set.of("p", "div", "section", "article", "main", "header", "aside", "ul",
      "ol", "li", "dl", "dt", "dd", "table", "thead", "tbody", "tfoot", "tr", "blockquote", "pre", "figure",
      "figcaption", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "address", "details", "summary", "body", "caption");
  private static final Set<String> CELLS = Set.of("td", "th");

  private HtmlParser() {
  }

  public static ParsedContent parse(String html) {
    org.jsoup.nodes.Document doc = Jsoup.parse(html);
    String title = doc.title().strip();
    if (title.isEmpty()) {
      Element h1 = doc.selectFirst("h1");
      title = h1 == null ? "" : h1.text().strip();
    }
    Element body = doc.body();
    body.select(DROP).remove();
    StringBuilder sb = new StringBuilder();
    render(body, sb);
    return ParsedContent.of(title.isEmpty() ? null : title, normalize(sb.toString()));
  }

  private static void render(Node node, StringBuilder sb) {
    for (Node child : node.childNodes()) {
      if (child instanceof TextNode text) {
        sb.append(text.text());
      } else if (child instanceof Element el) {
        String tag = el.normalName();
        if (tag.equals("br")) {
          sb.append('\n');
        } else if (tag.matches("h[1-6]")) {
          String heading = el.text().strip();
          if (!heading.isEmpty()) {
            sb.append("\n\n").append(MarkdownParser.asSentence(heading)).append("\n\n");
          }
        } else if (BLOCKS.contains(tag)) {
          sb.append("\n\n");
          render(el, sb);
          sb.append("\n\n");
        } else if (CELLS.contains(tag)) {
          render(el, sb);
          sb.append("; ");
        } else {
          render(el, sb);
        }
      }
    }
  }

  /** Collapses runs of spaces, trims each line, and leaves at most one blank line between paragraphs. */
  static String normalize(String text) {
    StringBuilder out = new StringBuilder();
    int blank = 0;
    for (String line : text.replace('\u00A0', ' ').split("\n", -1)) {
      String clean = line.replaceAll("[ \\t\\x0B\\f\\r]+", " ").strip();
      clean = clean.endsWith(";") ? clean.substring(0, clean.length() - 1).strip() : clean;
      if (clean.isEmpty()) {
        blank++;
        continue;
      }
      if (out.length() > 0) {
        out.append(blank > 0 ? "\n\n" : "\n");
      }
      out.append(clean);
      blank = 0;
    }
    return out.toString();
  }
}
