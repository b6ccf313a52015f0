package dev.argus.common;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Where the key of the {@link Fingerprinter} comes from: a configured base64 key, or a key file that is created once
 * with 32 random bytes (base64, owner read/write only) and read on every later start. The same key must be used for
 * the lifetime of a store: fingerprints made under another key never match the stored ones. Blocking (file I/O): call
 * it on a worker thread. The key is never logged.
 */
public final class FingerprintKeys {

  static final int KEY_BYTES = 32;

  private FingerprintKeys() {
  }

  /** The configured key when {@code base64Key} is not empty, otherwise the key in {@code file} (created if missing). */
  public static byte[] load(String base64Key, Path file) {
    if (base64Key != null && !base64Key.isBlank()) {
      return Base64.getDecoder().decode(base64Key.trim());
    }
    try {
      if (!Files.exists(file)) {
        create(file);
      }
      byte[] key = Base64.getDecoder().decode(Files.readString(file).trim());
      if (key.length < 16) {
        throw new IllegalStateException("fingerprint key file " + file + " holds fewer than 16 bytes");
      }
      return key;
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalStateException("cannot read or create the fingerprint key file " + file + ": " + e.getMessage(), e);
    }
  }

  private static void create(Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    try {
      try {
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      } catch (UnsupportedOperationException notPosix) {
        Files.createFile(file); // not a POSIX file system: the folder's permissions apply
      }
    } catch (FileAlreadyExistsException raced) {
      return; // another process created it first: use theirs
    }
    byte[] key = new byte[KEY_BYTES];
    new SecureRandom().nextBytes(key);
    Files.writeString(file, Base64.getEncoder().encodeToString(key) + "\n", StandardOpenOption.WRITE);
  }
}
