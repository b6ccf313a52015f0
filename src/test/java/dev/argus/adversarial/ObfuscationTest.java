package dev.argus.adversarial;

import dev.argus.records.IdentifierFolding;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** The disguises are disguises (they differ from the original) and the records' folding takes them off. */
class ObfuscationTest {

  @Test
  void eachEmailDisguiseFoldsBackToTheAddress() {
    String email = "contact@quintero-cycles-store-35.example";
    for (String technique : new String[] {"homoglyph", "zero_width", "spacing"}) {
      String disguised = Obfuscations.disguise(technique, email);
      assertNotEquals(email, disguised, technique);
      assertEquals(email, IdentifierFolding.email(disguised), technique);
    }
    // plus-addressing is kept by the records and dropped by the graph's canonical form
    assertEquals("contact+adv" + Math.abs(email.hashCode() % 1000) + "@quintero-cycles-store-35.example",
        Obfuscations.disguise("plus_addressing", email));
  }

  @Test
  void homoglyphsReplaceAtMostThreeLettersWithCyrillicTwins() {
    String d = Obfuscations.disguise("homoglyph", "paypal@example.com");
    assertEquals("рауpal@example.com", d); // the first p, a, y as Cyrillic р, а, у
    assertEquals(3, d.chars().filter(c -> c > 127).count());
  }

  @Test
  void phoneDisguiseFoldsToTheSameDigits() {
    String d = Obfuscations.disguise("phone_formatting", "+12015560001");
    assertEquals("+1 (201) 556-00\u200D01", d);
    assertEquals("+1 (201) 556-0001", IdentifierFolding.phone(d));
  }

  @Test
  void foldingLeavesOrdinaryAndWhollyForeignAddressesAlone() {
    assertEquals("k.marlo@example.com", IdentifierFolding.email("k.marlo@example.com"));
    assertEquals("пример@почта.рф", IdentifierFolding.email("пример@почта.рф"));
    assertEquals("ab@example.com", IdentifierFolding.email("ａｂ@example.com")); // full-width letters (NFKC)
    assertEquals("ab@example.com", IdentifierFolding.email("a\u00ADb@exam\u200Eple.com")); // soft hyphen, LRM
  }
}
