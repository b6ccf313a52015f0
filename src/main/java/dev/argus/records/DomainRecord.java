package dev.argus.records;

import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * One validated record ready to store: its {@code body} is the stored form of the contract (the wire object with
 * sensitive identifiers replaced by fingerprints, extra fields under {@code metadata}, no {@code label}); the ground-truth
 * {@code label} (synthetic worlds), when present, travels beside it to the labels table. The other components are the
 * indexed columns: {@code at} (event time, epoch ms: {@code at}, {@code createdAt} or {@code openedAt}), the seller,
 * buyer, referenced transaction and subject ids, the case's subjects, and a watchlist entry's match key and name;
 * {@code json} is the stored form encoded once (written as is), {@code hash} its content hash.
 */
public record DomainRecord(String id, RecordKind kind, JsonObject body, JsonObject label, Long at, String sellerId,
                           String buyerId, String refId, String subjectId, List<String> subjects, String matchKey,
                           String watchName, String json, String hash) {

  /** A record with its content hash (of the stored form's JSON; equal bodies give equal hashes). */
  public static DomainRecord of(String id, RecordKind kind, JsonObject body, JsonObject label, Long at, String sellerId,
                                String buyerId, String refId, String subjectId, List<String> subjects, String matchKey,
                                String watchName) {
    String json = body.encode();
    return new DomainRecord(id, kind, body, label, at, sellerId, buyerId, refId, subjectId, subjects, matchKey,
        watchName, json, hash(json));
  }

  static String hash(String text) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
