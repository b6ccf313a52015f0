package dev.argus.graph;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * Entity and relation ids (contracts.md): a record-backed entity has its record id ({@code S-1}); an identifier entity
 * is {@code prefix:normalized-value} ({@code email:k.marlo@example.com}). A relation id is stable: the first 80 bits of
 * SHA-256 over {@code type|from|to} in hex, so the same fact always gets the same id; it is cited as {@code [rel:ID]},
 * an entity as {@code [entity:TYPE:ID]}.
 */
public final class EntityIds {

  /** Identifier prefixes by entity type. */
  static final Map<String, String> PREFIX = Map.ofEntries(Map.entry(Types.EMAIL, "email"),
      Map.entry(Types.DOMAIN, "domain"), Map.entry(Types.PHONE, "phone"), Map.entry(Types.ADDRESS, "address"),
      Map.entry(Types.IP, "ip"), Map.entry(Types.IPNET, "ipnet"), Map.entry(Types.DEVICE, "device"),
      Map.entry(Types.BANK_ACCOUNT, "bank"), Map.entry(Types.CARD, "card"), Map.entry(Types.BUSINESS_NAME, "business"),
      Map.entry(Types.TAX_ID, "tax"), Map.entry(Types.DOCUMENT, "doc"));

  private static final Map<String, String> TYPE_OF_PREFIX = PREFIX.entrySet().stream()
      .collect(java.util.stream.Collectors.toUnmodifiableMap(Map.Entry::getValue, Map.Entry::getKey));

  /** One SHA-256 per thread: relation ids are computed for every edge fact of a load. */
  private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  });

  private EntityIds() {
  }

  public static String of(String type, String value) {
    String prefix = PREFIX.get(type);
    if (prefix == null) {
      throw new IllegalArgumentException("no identifier prefix for type " + type);
    }
    return prefix + ":" + value;
  }

  /** The type of an identifier id from its prefix, or null (a record-backed id). */
  public static String typeOf(String id) {
    int colon = id.indexOf(':');
    if (colon <= 0) {
      return null;
    }
    return TYPE_OF_PREFIX.get(id.substring(0, colon));
  }

  /** The value part of an identifier id (the id itself for record-backed ones). */
  public static String value(String id) {
    return typeOf(id) == null ? id : id.substring(id.indexOf(':') + 1);
  }

  public static String edge(String type, String from, String to) {
    MessageDigest sha = SHA256.get();
    sha.reset();
    byte[] d = sha.digest((type + "|" + from + "|" + to).getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(d, 0, 10);
  }

  public static String citeEntity(String type, String id) {
    return "[entity:" + type + ":" + id + "]";
  }

  public static String citeRelation(String id) {
    return "[rel:" + id + "]";
  }
}
