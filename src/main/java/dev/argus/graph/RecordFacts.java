package dev.argus.graph;

import dev.argus.graph.normalize.Domains;
import dev.argus.graph.normalize.Emails;
import dev.argus.graph.normalize.IpAddrs;
import dev.argus.graph.normalize.Names;
import dev.argus.graph.normalize.Phones;
import dev.argus.graph.normalize.PostalAddresses;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.OffsetDateTime;
import java.util.Map;
import java.util.Set;

/**
 * The graph facts of one stored record (the records capability's stored form, fingerprints instead of raw
 * identifiers). Sellers and buyers link to their normalized identifiers; a transaction links its buyer to the seller
 * (BUYS_FROM), to its card, device and IP; a payout links the seller to the bank account; a case links its subjects to
 * the case node; risk events, cases and watchlist entries add risk to the node they name. Every fact's origin is the
 * record, so replacing or deleting the record removes exactly its contributions. Pure and thread-safe.
 */
public final class RecordFacts {

  /** Node risk of a risk event by severity; of a case by outcome; of a watched identifier. */
  static final Map<String, Double> SEVERITY_RISK = Map.of("low", 0.25, "medium", 0.5, "high", 0.75, "critical", 1.0);
  static final Map<String, Double> CASE_RISK = Map.of("fraud", 1.0, "pending", 0.3, "legit", 0.0);
  static final double WATCHLIST_RISK = 0.9;

  private final Set<String> freeMail;

  public RecordFacts(Set<String> freeMail) {
    this.freeMail = freeMail;
  }

  /** Adds the facts of {@code body} to {@code out} (which replaces the record's earlier contributions). */
  public void add(JsonObject body, Facts out) {
    String id = body.getString("id");
    String kind = body.getString("kind", "");
    out.replacing(id);
    Long t = time(body);
    Facts.Source src = new Facts.Source(Facts.Source.RECORD, id, id, t == null ? 0L : t);
    switch (kind) {
      case "seller" -> party(body, Types.SELLER, out, src);
      case "buyer" -> party(body, Types.BUYER, out, src);
      case "transaction" -> transaction(body, out, src);
      case "payout" -> {
        String seller = body.getString("sellerId");
        String fp = body.getString("bankAccountFp");
        if (seller != null && fp != null) {
          edge(out, Types.PAYS_OUT_TO, seller, Types.SELLER, EntityIds.of(Types.BANK_ACCOUNT, fp), Types.BANK_ACCOUNT, src);
        }
      }
      case "risk_event" -> {
        String subject = body.getString("subjectId");
        if (subject != null) {
          out.node(new Facts.NodeFact(subject, typeOfSubject(subject), subject, null, false,
              SEVERITY_RISK.getOrDefault(body.getString("severity", ""), 0.0), src));
        }
      }
      case "case" -> kase(body, out, src);
      case "watchlist_entry" -> watch(body, out, src);
      default -> {
        // refunds and chargebacks carry no identifiers of their own: the transaction signals read them
      }
    }
  }

  private void party(JsonObject b, String type, Facts out, Facts.Source src) {
    String id = b.getString("id");
    String country = b.getString("country", b.getJsonObject("address", new JsonObject()).getString("country"));
    String name = type.equals(Types.SELLER) ? firstNonBlank(b.getString("businessName"), b.getString("legalName"))
        : firstNonBlank(b.getString("name"), id);
    JsonObject attrs = new JsonObject();
    for (String f : new String[] {"legalName", "businessName", "name", "country", "status", "createdAt", "website"}) {
      if (b.getValue(f) != null) {
        attrs.put(f, b.getValue(f));
      }
    }
    out.node(new Facts.NodeFact(id, type, name == null ? id : name, attrs, true, 0.0, src));
    Emails.canonical(b.getString("email")).ifPresent(email -> {
      String emailId = EntityIds.of(Types.EMAIL, email);
      edge(out, Types.USES_EMAIL, id, type, emailId, Types.EMAIL, src);
      String domain = Emails.domain(email);
      if (!freeMail.contains(domain)) {
        edge(out, Types.EMAIL_DOMAIN, emailId, Types.EMAIL, EntityIds.of(Types.DOMAIN, domain), Types.DOMAIN, src);
      }
    });
    Phones.e164(b.getString("phone"), country).ifPresent(p ->
        edge(out, Types.USES_PHONE, id, type, EntityIds.of(Types.PHONE, p), Types.PHONE, src));
    JsonObject a = b.getJsonObject("address");
    if (a != null) {
      String key = PostalAddresses.key(a.getString("line1"), a.getString("city"), a.getString("postalCode"),
          a.getString("country"));
      if (key != null) {
        edge(out, Types.REGISTERED_AT, id, type, EntityIds.of(Types.ADDRESS, key), Types.ADDRESS, src);
      }
    }
    Domains.of(b.getString("website")).ifPresent(d ->
        edge(out, Types.HAS_WEBSITE, id, type, EntityIds.of(Types.DOMAIN, d), Types.DOMAIN, src));
    String business = Names.normalize(b.getString("businessName"));
    if (!business.isEmpty()) {
      edge(out, Types.TRADES_AS, id, type, EntityIds.of(Types.BUSINESS_NAME, business), Types.BUSINESS_NAME, src);
    }
    if (b.getString("taxIdFp") != null) {
      edge(out, Types.HAS_TAX_ID, id, type, EntityIds.of(Types.TAX_ID, b.getString("taxIdFp")), Types.TAX_ID, src);
    }
    if (b.getString("bankAccountFp") != null) {
      edge(out, Types.PAYS_OUT_TO, id, type, EntityIds.of(Types.BANK_ACCOUNT, b.getString("bankAccountFp")),
          Types.BANK_ACCOUNT, src);
    }
    for (Object d : b.getJsonArray("deviceIds", new JsonArray())) {
      edge(out, Types.USES_DEVICE, id, type, EntityIds.of(Types.DEVICE, String.valueOf(d)), Types.DEVICE, src);
    }
    for (Object ip : b.getJsonArray("ips", new JsonArray())) {
      ip(out, id, type, String.valueOf(ip), src);
    }
  }

  private void transaction(JsonObject b, Facts out, Facts.Source src) {
    String seller = b.getString("sellerId");
    String buyer = b.getString("buyerId");
    if (seller == null) {
      return;
    }
    // without a buyer, the transaction's card, device and IP hang on the seller's side
    String actor = buyer == null ? seller : buyer;
    String actorType = buyer == null ? Types.SELLER : Types.BUYER;
    if (buyer != null) {
      edge(out, Types.BUYS_FROM, buyer, Types.BUYER, seller, Types.SELLER, src);
    }
    if (b.getString("cardFp") != null) {
      edge(out, Types.PAYS_WITH, actor, actorType, EntityIds.of(Types.CARD, b.getString("cardFp")), Types.CARD, src);
    }
    if (b.getString("deviceId") != null) {
      edge(out, Types.USES_DEVICE, actor, actorType, EntityIds.of(Types.DEVICE, b.getString("deviceId")), Types.DEVICE,
          src);
    }
    if (b.getString("ip") != null) {
      ip(out, actor, actorType, b.getString("ip"), src);
    }
  }

  private void kase(JsonObject b, Facts out, Facts.Source src) {
    String id = b.getString("id");
    String outcome = b.getString("outcome", "pending");
    JsonObject attrs = new JsonObject().put("outcome", outcome).put("openedAt", b.getString("openedAt"));
    if (b.getString("closedAt") != null) {
      attrs.put("closedAt", b.getString("closedAt"));
    }
    out.node(new Facts.NodeFact(id, Types.CASE, "case " + id + " (" + outcome + ")", attrs, true, 0.0, src));
    double risk = CASE_RISK.getOrDefault(outcome, 0.0);
    for (Object s : b.getJsonArray("subjectIds", new JsonArray())) {
      String subject = String.valueOf(s);
      String type = typeOfSubject(subject);
      edge(out, Types.SUBJECT_OF, subject, type, id, Types.CASE, src);
      if (risk > 0) {
        out.node(new Facts.NodeFact(subject, type, subject, null, false, risk, src));
      }
    }
  }

  private static void watch(JsonObject b, Facts out, Facts.Source src) {
    String type = b.getString("type", "");
    String value = b.getString("value");
    String node = switch (type) {
      case "email" -> Emails.canonical(value).map(e -> EntityIds.of(Types.EMAIL, e)).orElse(null);
      case "phone" -> Phones.e164(value, null).map(p -> EntityIds.of(Types.PHONE, p)).orElse(null);
      case "ip" -> IpAddrs.address(value).map(ip -> EntityIds.of(Types.IP, ip)).orElse(null);
      case "domain" -> Domains.of(value).map(d -> EntityIds.of(Types.DOMAIN, d)).orElse(null);
      case "bank_account" -> b.getString("valueFp") == null ? null
          : EntityIds.of(Types.BANK_ACCOUNT, b.getString("valueFp"));
      default -> null;
    };
    if (node != null) {
      out.node(new Facts.NodeFact(node, EntityIds.typeOf(node), EntityIds.value(node), null, false, WATCHLIST_RISK,
          src));
    }
  }

  private static void ip(Facts out, String id, String type, String raw, Facts.Source src) {
    IpAddrs.address(raw).ifPresent(ip -> {
      String ipId = EntityIds.of(Types.IP, ip);
      edge(out, Types.LOGGED_IN_FROM, id, type, ipId, Types.IP, src);
      IpAddrs.network(ip).ifPresent(net ->
          edge(out, Types.IN_NETWORK, ipId, Types.IP, EntityIds.of(Types.IPNET, net), Types.IPNET, src));
    });
  }

  private static void edge(Facts out, String type, String from, String fromType, String to, String toType,
                           Facts.Source src) {
    out.edge(new Facts.EdgeFact(type, from, fromType, to, toType, Types.weight(type), src));
  }

  /** Record-backed subjects by id convention of the world: B- buyers, C- cases, everything else a seller. */
  static String typeOfSubject(String id) {
    if (id.startsWith("B-")) {
      return Types.BUYER;
    }
    if (id.startsWith("C-")) {
      return Types.CASE;
    }
    return Types.SELLER;
  }

  static Long time(JsonObject body) {
    for (String f : new String[] {"at", "createdAt", "openedAt"}) {
      if (body.getValue(f) instanceof String s) {
        try {
          return OffsetDateTime.parse(s).toInstant().toEpochMilli();
        } catch (RuntimeException e) {
          return null;
        }
      }
    }
    return null;
  }

  private static String firstNonBlank(String a, String b) {
    return a != null && !a.isBlank() ? a : b;
  }
}
