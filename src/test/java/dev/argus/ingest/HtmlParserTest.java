package dev.argus.ingest;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

class HtmlParserTest {

  @Test
  void extractsTitleAndBlockTextDroppingChrome() {
    String html = """
        <!doctype html><html><head><title>Refund abuse playbook</title>
        <style>body { color: red }</style><script>var secret = 1;</script></head>
        <body>
          <nav><a href="/">Home</a> | <a href="/x">Other</a></nav>
          <h1>Refund   abuse</h1>
          <p>Customers claim <b>item not received</b> repeatedly.<br>Check carrier scans.</p>
          <ul><li>Same address, many accounts</li><li>High refund ratio</li></ul>
          <table><tr><th>Signal</th><th>Weight</th></tr><tr><td>Refund ratio</td><td>5</td></tr></table>
          <footer>Copyright 2024</footer>
          <script>track();</script>
        </body></html>
        """;
    ParsedContent parsed = HtmlParser.parse(html);
    assertEquals("Refund abuse playbook", parsed.title());
    assertEquals("""
        Refund abuse.

        Customers claim item not received repeatedly.
        Check carrier scans.

        Same address, many accounts

        High refund ratio

        Signal; Weight

        Refund ratio; 5""", parsed.text());
    assertFalse(parsed.text().contains("secret"));
    assertFalse(parsed.text().contains("Home"));
    assertFalse(parsed.text().contains("Copyright"));
  }

  @Test
  void titleFallsBackToFirstH1() {
    assertEquals("Mule accounts", HtmlParser.parse("<h2>x</h2><h1>Mule accounts</h1><p>Body</p>").title());
    assertNull(HtmlParser.parse("<p>Only a paragraph</p>").title());
    assertEquals("Only a paragraph", HtmlParser.parse("<p>Only a paragraph</p>").text());
  }
}
