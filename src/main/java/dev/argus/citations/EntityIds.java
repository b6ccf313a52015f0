package dev.argus.citations;

import java.util.Map;

/**
 * How a cited entity maps to its graph id (contracts: Graph). Record-backed entities (seller, buyer, case) carry the
 * record id; identifier entities are {@code prefix:normalized-value}. A citation may write either the bare value
 * ({@code [entity:email:k@example.com]}) or the whole graph id ({@code [entity:email:email:k@example.com]}).
 */
public final class EntityIds {

  static final Map<String, String> PREFIX = Map.ofEntries(Map.entry("email", "email"), Map.entry("domain", "domain"),
      Map.entry("phone", "phone"), Map.entry("address", "address"), Map.entry("ip", "ip"), Map.entry("ipnet", "ipnet"),
      Map.entry("device", "device"), Map.entry("bank_account", "bank"), Map.entry("card", "card"),
      Map.entry("business_name", "business"), Map.entry("tax_id", "tax"), Map.entry("document", "doc"));

  private EntityIds() {
  }

  public static String graphId(Citation.Entity e) {
    String prefix = PREFIX.get(e.type());
    if (prefix == null || e.id().startsWith(prefix + ":")) {
      return e.id();
    }
    return prefix + ":" + e.id();
  }
}
