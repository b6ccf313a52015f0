package dev.argus.ingest;

import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TableCell;
import org.commonmark.ext.gfm.tables.TableRow;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.Code;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.HardLineBreak;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.IndentedCodeBlock;
import org.commonmark.node.LinkReferenceDefinition;
import org.commonmark.node.Node;
import org.commonmark.node.Paragraph;
import org.commonmark.node.SoftLineBreak;
import org.commonmark.node.StrongEmphasis;
import org.commonmark.node.Text;
import org.commonmark.node.ThematicBreak;
import org.commonmark.parser.Parser;
import org.jsoup.Jsoup;

import java.util.ArrayList;
import java.util.List;

/**
 * Markdown (CommonMark + GFM tables, parsed with commonmark-java) to clean text: markup is dropped, links keep
 * their text, images their alt text, code its literal; every block (heading, paragraph, list item, table row,
 * code block) becomes its own paragraph; headings end with a full stop so they read as sentences. An optional
 * {@link FrontMatter} block sets id, title, namespace and metadata; otherwise the title is the first heading.
 * Soft line breaks are spaces (wrapped prose), except before a line that starts in bold ("**Label:** value"
 * lines), which stays a line of its own.
 */
public final class MarkdownParser {

  private static final Parser PARSER = Parser.builder().extensions(List.of(TablesExtension.create())).build();

  private MarkdownParser() {
  }

  public static ParsedContent parse(String content) {
    FrontMatter.Result fm = FrontMatter.parse(content);
    Node root = PARSER.parse(fm.body());
    List<String> blocks = new ArrayList<>();
    String[] firstHeading = {null};
    collect(root, blocks, firstHeading);
    String title = fm.fields().getString("title");
    if (title == null || title.isBlank()) {
      title = firstHeading[0];
    }
    return new ParsedContent(title, String.join("\n\n", blocks), fm.fields(), fm.metadata());
  }

  private static void collect(Node node, List<String> blocks, String[] firstHeading) {
    for (Node child = node.getFirstChild(); child != null; child = child.getNext()) {
      if (child instanceof Heading) {
        String text = inline(child).strip();
        if (!text.isEmpty()) {
          if (firstHeading[0] == null) {
            firstHeading[0] = text;
          }
          blocks.add(asSentence(text));
        }
      } else if (child instanceof Paragraph) {
        add(blocks, inline(child));
      } else if (child instanceof FencedCodeBlock code) {
        add(blocks, code.getLiteral());
      } else if (child instanceof IndentedCodeBlock code) {
        add(blocks, code.getLiteral());
      } else if (child instanceof HtmlBlock html) {
        add(blocks, Jsoup.parse(html.getLiteral()).text());
      } else if (child instanceof TableBlock table) {
        table(table, blocks);
      } else if (child instanceof ThematicBreak || child instanceof LinkReferenceDefinition) {
        continue;
      } else {
        collect(child, blocks, firstHeading); // block quotes, lists, list items
      }
    }
  }

  private static void table(TableBlock table, List<String> blocks) {
    List<Node> rows = new ArrayList<>();
    descend(table, rows);
    for (Node row : rows) {
      List<String> cells = new ArrayList<>();
      for (Node cell = row.getFirstChild(); cell != null; cell = cell.getNext()) {
        if (cell instanceof TableCell) {
          String text = inline(cell).strip();
          if (!text.isEmpty()) {
            cells.add(text);
          }
        }
      }
      if (!cells.isEmpty()) {
        blocks.add(String.join("; ", cells));
      }
    }
  }

  private static void descend(Node node, List<Node> rows) {
    for (Node child = node.getFirstChild(); child != null; child = child.getNext()) {
      if (child instanceof TableRow) {
        rows.add(child);
      } else {
        descend(child, rows);
      }
    }
  }

  private static void add(List<String> blocks, String text) {
    String clean = text.strip();
    if (!clean.isEmpty()) {
      blocks.add(clean);
    }
  }

  /** The text of inline content: literals kept, markup dropped, soft breaks as spaces. */
  static String inline(Node node) {
    StringBuilder sb = new StringBuilder();
    appendInline(node, sb);
    return sb.toString().replaceAll("[ \\t]+", " ");
  }

  private static void appendInline(Node node, StringBuilder sb) {
    for (Node child = node.getFirstChild(); child != null; child = child.getNext()) {
      if (child instanceof Text t) {
        sb.append(t.getLiteral());
      } else if (child instanceof Code c) {
        sb.append(c.getLiteral());
      } else if (child instanceof SoftLineBreak) {
        // "**Label:** value" lines written one under the other are separate statements, not wrapped prose
        sb.append(child.getNext() instanceof StrongEmphasis ? '\n' : ' ');
      } else if (child instanceof HardLineBreak) {
        sb.append('\n');
      } else if (child instanceof HtmlInline) {
        continue;
      } else {
        appendInline(child, sb); // emphasis, strong, links (their text), images (their alt text)
      }
    }
  }

  /** A heading as a sentence: a full stop is added unless it already ends with punctuation. */
  static String asSentence(String heading) {
    char last = heading.charAt(heading.length() - 1);
    return ".!?:;".indexOf(last) >= 0 ? heading : heading + ".";
  }
}
