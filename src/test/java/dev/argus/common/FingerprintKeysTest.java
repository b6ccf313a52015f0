package dev.argus.common;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The fingerprint key: created once in the data folder (owner-only), reused after, overridden by configuration. */
class FingerprintKeysTest {

  @Test
  void keyFileIsCreatedOnceAndReused() throws Exception {
    Path file = Files.createTempDirectory("argus-key-").resolve("sub").resolve("fingerprint.key");
    byte[] first = FingerprintKeys.load("", file);
    assertEquals(FingerprintKeys.KEY_BYTES, first.length);
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    assertArrayEquals(first, FingerprintKeys.load(null, file), "a later start reads the same key");
    Fingerprinter a = new Fingerprinter(first);
    Fingerprinter b = new Fingerprinter(FingerprintKeys.load("", file));
    assertEquals(a.taxId("DE-1"), b.taxId("DE-1"), "same key, same fingerprints across restarts");
  }

  @Test
  void configuredKeyWinsAndBadFilesFailClearly() throws Exception {
    Path dir = Files.createTempDirectory("argus-key-");
    byte[] key = "configured-key-of-enough-bytes!!".getBytes();
    assertArrayEquals(key, FingerprintKeys.load(Base64.getEncoder().encodeToString(key), dir.resolve("unused.key")));
    assertFalse(Files.exists(dir.resolve("unused.key")), "no file when a key is configured");
    Path shortKey = dir.resolve("short.key");
    Files.writeString(shortKey, Base64.getEncoder().encodeToString(new byte[4]));
    assertThrows(IllegalStateException.class, () -> FingerprintKeys.load("", shortKey));
  }
}
