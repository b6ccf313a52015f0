package dev.argus.config;

/**
 * Section {@code records}: loading of fraud-domain records (JSON Lines) and the keyed fingerprints of their sensitive
 * identifiers. {@code fingerprintKey} (base64, at least 16 bytes; prefer {@code ARGUS_RECORDS_FINGERPRINT_KEY}) wins
 * over {@code fingerprintKeyFile}; with neither set, the key file is {@code <data.dir>/fingerprint.key}, created once
 * with 32 random bytes. {@code sampleWorldSellers} > 0 loads a generated world of that many sellers into an empty
 * records store at start ({@code scripts/run} sets it).
 */
public record RecordsConf(int batchSize, int maxLineChars, long asyncThresholdBytes, int maxErrorsKept,
                          String fingerprintKey, String fingerprintKeyFile, boolean caseDocuments, String caseNamespace,
                          int sampleWorldSellers, long sampleWorldSeed, long graphTimeoutMs) {

  public static RecordsConf from(Settings s) {
    String key = s.string("fingerprintKey", "");
    if (!key.isEmpty()) {
      byte[] bytes;
      try {
        bytes = java.util.Base64.getDecoder().decode(key.trim());
      } catch (IllegalArgumentException e) {
        throw s.error("fingerprintKey", "must be base64");
      }
      if (bytes.length < 16) {
        throw s.error("fingerprintKey", "must decode to at least 16 bytes, got " + bytes.length);
      }
    }
    String namespace = s.nonBlank("caseNamespace", "default");
    if (!namespace.matches("[a-z0-9][a-z0-9_-]{0,63}")) {
      throw s.error("caseNamespace", "must match [a-z0-9][a-z0-9_-]{0,63}, got '" + namespace + "'");
    }
    return new RecordsConf(
        s.intIn("batchSize", 1000, 1, 10_000),
        s.intIn("maxLineChars", 65_536, 256, 10_000_000),
        s.longIn("asyncThresholdBytes", 64 * 1024, 0, 1L << 31),
        s.intIn("maxErrorsKept", 1000, 1, 1_000_000),
        key.trim(),
        s.string("fingerprintKeyFile", ""),
        s.bool("caseDocuments", true),
        namespace,
        s.intIn("sampleWorldSellers", 0, 0, 1_000_000),
        s.longIn("sampleWorldSeed", 42, Long.MIN_VALUE, Long.MAX_VALUE),
        s.longIn("graphTimeoutMs", 60_000, 100, 3_600_000));
  }
}
