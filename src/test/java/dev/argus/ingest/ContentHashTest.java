package dev.argus.ingest;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class ContentHashTest {

  private static ParsedDocument doc(String ns, String title, String text, JsonObject meta) {
    return new ParsedDocument("id", ns, title, "src", text, meta);
  }

  @Test
  void equalContentHashesEquallyWhateverTheKeyOrder() {
    String a = ContentHash.of(doc("default", "T", "text", new JsonObject().put("a", 1).put("b", "x")));
    String b = ContentHash.of(doc("default", "T", "text", new JsonObject().put("b", "x").put("a", 1)));
    assertEquals(a, b);
    assertEquals(64, a.length());
    assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", ContentHash.sha256Hex(""));
  }

  @Test
  void anyContentFieldChangesTheHash() {
    JsonObject meta = new JsonObject().put("a", 1);
    String base = ContentHash.of(doc("default", "T", "text", meta));
    assertNotEquals(base, ContentHash.of(doc("other", "T", "text", meta)));
    assertNotEquals(base, ContentHash.of(doc("default", "T2", "text", meta)));
    assertNotEquals(base, ContentHash.of(doc("default", "T", "text.", meta)));
    assertNotEquals(base, ContentHash.of(doc("default", "T", "text", new JsonObject().put("a", 2))));
    assertNotEquals(ContentHash.of(doc("a", "b\u0000c", "d", meta)), ContentHash.of(doc("a", "b", "c\u0000d", meta)),
        "field boundaries matter");
  }
}
