package dev.argus.graph;

import java.util.Map;

/**
 * Entity types and relation types of the graph, with each relation type's weight (how strongly it links two
 * entities: a shared payout account or device says more than a shared /24 network). Weights are fixed here and
 * documented in the README; investigations follow only edges of weight >= 0.7 by default.
 */
public final class Types {

  public static final String SELLER = "seller";
  public static final String BUYER = "buyer";
  public static final String EMAIL = "email";
  public static final String DOMAIN = "domain";
  public static final String PHONE = "phone";
  public static final String ADDRESS = "address";
  public static final String IP = "ip";
  public static final String IPNET = "ipnet";
  public static final String DEVICE = "device";
  public static final String BANK_ACCOUNT = "bank_account";
  public static final String CARD = "card";
  public static final String BUSINESS_NAME = "business_name";
  public static final String TAX_ID = "tax_id";
  public static final String CASE = "case";
  public static final String DOCUMENT = "document";

  public static final String USES_EMAIL = "USES_EMAIL";
  public static final String USES_PHONE = "USES_PHONE";
  public static final String USES_DEVICE = "USES_DEVICE";
  public static final String LOGGED_IN_FROM = "LOGGED_IN_FROM";
  public static final String PAYS_OUT_TO = "PAYS_OUT_TO";
  public static final String BUYS_FROM = "BUYS_FROM";
  public static final String PAYS_WITH = "PAYS_WITH";
  public static final String REGISTERED_AT = "REGISTERED_AT";
  public static final String HAS_TAX_ID = "HAS_TAX_ID";
  public static final String HAS_WEBSITE = "HAS_WEBSITE";
  public static final String TRADES_AS = "TRADES_AS";
  public static final String EMAIL_DOMAIN = "EMAIL_DOMAIN";
  public static final String IN_NETWORK = "IN_NETWORK";
  public static final String SUBJECT_OF = "SUBJECT_OF";
  public static final String MENTIONS = "MENTIONS";

  static final Map<String, Double> WEIGHTS = Map.ofEntries(Map.entry(PAYS_OUT_TO, 1.0), Map.entry(HAS_TAX_ID, 1.0),
      Map.entry(SUBJECT_OF, 1.0), Map.entry(USES_EMAIL, 0.9), Map.entry(USES_PHONE, 0.9),
      Map.entry(USES_DEVICE, 0.9), Map.entry(PAYS_WITH, 0.9), Map.entry(BUYS_FROM, 0.8),
      Map.entry(HAS_WEBSITE, 0.8), Map.entry(MENTIONS, 0.8), Map.entry(REGISTERED_AT, 0.7),
      Map.entry(LOGGED_IN_FROM, 0.7), Map.entry(TRADES_AS, 0.6), Map.entry(EMAIL_DOMAIN, 0.5),
      Map.entry(IN_NETWORK, 0.4));

  /** Record-backed types: the entities that act (and can be risky or fraudulent). */
  public static boolean isSubject(String type) {
    return SELLER.equals(type) || BUYER.equals(type);
  }

  public static double weight(String relationType) {
    return WEIGHTS.getOrDefault(relationType, 0.5);
  }

  private Types() {
  }
}
