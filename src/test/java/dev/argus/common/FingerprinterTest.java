package dev.argus.common;

import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FingerprinterTest {

  private final byte[] key = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
  private final Fingerprinter fp = new Fingerprinter(key);

  @Test
  void bankAccountIgnoresSeparatorsAndCase() {
    assertEquals(fp.bankAccount("DE89 3704 0044 0532 0130 00"), fp.bankAccount("de89-3704-0044-0532-0130-00"));
    assertNotEquals(fp.bankAccount("DE89370400440532013000"), fp.bankAccount("DE89370400440532013001"));
  }

  @Test
  void fingerprintIsTheTruncatedHmacOfKindAndValue() throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    byte[] digest = mac.doFinal("tax_id:AB123456".getBytes(StandardCharsets.UTF_8));
    String expected = "fp_" + Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(digest, 16));
    assertEquals(expected, fp.taxId("ab-123 456"));
  }

  @Test
  void kindsAndKeysSeparateTheSameValue() {
    assertNotEquals(fp.taxId("123456789"), fp.bankAccount("123456789"));
    Fingerprinter other = new Fingerprinter("another-key-of-32-bytes-length!!".getBytes(StandardCharsets.UTF_8));
    assertNotEquals(fp.taxId("123456789"), other.taxId("123456789"));
  }

  @Test
  void rawValueIsNotInTheFingerprint() {
    String f = fp.card("411111", "1111");
    assertTrue(f.startsWith("fp_"));
    assertFalse(f.contains("411111"));
    assertEquals(fp.card("411111", "1111"), fp.card("4111 11", "1111"));
  }

  @Test
  void lastFourAndShortKeys() {
    assertEquals("3000", Fingerprinter.last4("DE89 3704 0044 0532 0130 00"));
    assertEquals("", Fingerprinter.last4("12"));
    assertThrows(IllegalArgumentException.class, () -> new Fingerprinter(new byte[8]));
  }
}
