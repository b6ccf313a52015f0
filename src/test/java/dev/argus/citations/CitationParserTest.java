package dev.argus.citations;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CitationParserTest {

  @Test
  void parsesTheThreeForms() throws Exception {
    assertEquals(new Citation.Source("graph_connections", 3), CitationParser.parse("[source:graph_connections:3]"));
    assertEquals(new Citation.Source("seller_profile", 0), CitationParser.parse("[source:seller_profile:0]"));
    assertEquals(new Citation.Entity("seller", "S-1"), CitationParser.parse("[entity:seller:S-1]"));
    assertEquals(new Citation.Entity("email", "email:k.marlo@example.com"),
        CitationParser.parse("[entity:email:email:k.marlo@example.com]"));
    assertEquals(new Citation.Entity("bank_account", "bank:ab12"), CitationParser.parse("[entity:bank_account:bank:ab12]"));
    assertEquals(new Citation.Relation("rel:9f3a"), CitationParser.parse("[rel:rel:9f3a]"));
    assertEquals(new Citation.Relation("9f3a"), CitationParser.parse("[rel:9f3a]"));
  }

  @Test
  void textGivesBackTheWrittenForm() throws Exception {
    for (String s : new String[] {"[source:ip_risk:12]", "[entity:device:device:d-1]", "[rel:abc]"}) {
      assertEquals(s, CitationParser.parse(s).text());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "", "S-1", "entity:seller:S-1", "[entity:seller:S-1] ", " [entity:seller:S-1]", "[entity:seller:S 1]",
      "[entity:person:S-1]", "[entity:seller:]", "[entity:seller]", "[entity:Seller:S-1]", "[entity:seller:S-[1]]",
      "[source:graph_connections:-1]", "[source:graph_connections:01]", "[source:Graph:1]", "[source:graph:x]",
      "[source:graph]", "[source::1]", "[source:graph_connections:99999999]", "[rel:]", "[rel:a b]", "[rel]",
      "[doc:1]", "[[rel:x]]", "[entity:seller:S-1][rel:x]"})
  void rejectsMalformed(String text) {
    MalformedCitationException e = assertThrows(MalformedCitationException.class, () -> CitationParser.parse(text));
    assertTrue(!e.getMessage().isBlank());
  }

  @Test
  void rejectsOverlongAndControlCharacters() {
    assertThrows(MalformedCitationException.class, () -> CitationParser.parse("[rel:" + "a".repeat(600) + "]"));
    assertThrows(MalformedCitationException.class, () -> CitationParser.parse("[rel:a\u0007b]"));
    assertThrows(MalformedCitationException.class, () -> CitationParser.parse(null));
  }

  @Test
  void bareIdentifierValuesMapToGraphIds() throws Exception {
    assertEquals("email:k@example.com", EntityIds.graphId((Citation.Entity) CitationParser.parse("[entity:email:k@example.com]")));
    assertEquals("email:k@example.com", EntityIds.graphId((Citation.Entity) CitationParser.parse("[entity:email:email:k@example.com]")));
    assertEquals("bank:fp1", EntityIds.graphId((Citation.Entity) CitationParser.parse("[entity:bank_account:fp1]")));
    assertEquals("S-1", EntityIds.graphId((Citation.Entity) CitationParser.parse("[entity:seller:S-1]")));
  }
}
