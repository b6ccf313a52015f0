package dev.argus.records.world;

import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/** The mutable plans the generator fills in before it writes anything: sellers, buyers, explicit transactions, groups. */
final class Plans {

  private Plans() {
  }

  /** A seller: its application and how it trades. Times are epoch seconds. */
  static final class Seller {
    String id;
    long createdAt;
    String legalName;
    String businessName;
    String email;
    String phone;
    Fakes.Address address;
    String country;
    String website;
    String taxId;
    String bankAccount;
    List<String> deviceIds = new ArrayList<>();
    List<String> ips = new ArrayList<>();
    String status = "active";
    JsonObject label;
    // activity
    int transactions;
    double medianAmount = 40;
    double sigma = 0.8;
    String currency = "USD";
    double refundRate = 0.02;
    double chargebackRate = 0.003;
    int payoutEveryDays = 7;
    long activeFrom;
    long activeTo;
    /** Regular transactions come from these buyers (empty: the whole pool). */
    List<Buyer> buyers = new ArrayList<>();
    /** Amounts just under this threshold (structuring), 0 = log-normal amounts. */
    double structureBelow;
    /** Cards from abroad on every transaction (triangulation). */
    boolean foreignCards;
    /** From this time payouts go to {@link #takeoverAccount} (account takeover); 0 = never. */
    long takeoverAt;
    String takeoverAccount;
    /** Round amounts (collusion rings move fixed sums). */
    boolean roundAmounts;
    final List<Tx> extra = new ArrayList<>();
  }

  /** A buyer; {@code cards} are its own payment cards. */
  static final class Buyer {
    String id;
    long createdAt;
    String name;
    String email;
    String phone;
    Fakes.Address address;
    String country;
    List<String> deviceIds = new ArrayList<>();
    List<String> ips = new ArrayList<>();
    List<Fakes.Card> cards = new ArrayList<>();
    JsonObject label;
  }

  /** An explicit transaction a pattern plants, with what happens to it afterwards. */
  record Tx(long at, Buyer buyer, double amount, boolean refund, boolean chargeback, String promoCode) {
  }

  /** A planted pattern or trap: its members and the identifiers a case summary would mention. */
  static final class Group {
    final String pattern;
    final String id;
    final boolean fraud;
    final List<Seller> sellers = new ArrayList<>();
    final List<Buyer> buyers = new ArrayList<>();
    final List<String> mentions = new ArrayList<>();
    String story;
    /** When a case about the group would be opened (epoch seconds; 0 = some time in the last two months). */
    long caseAt;
    /** Identifiers to put on the watchlist as {type, value} (empty: none). */
    final List<String[]> watch = new ArrayList<>();

    Group(String pattern, int n, boolean fraud) {
      this.pattern = pattern;
      this.id = pattern + "-" + n;
      this.fraud = fraud;
    }

    JsonObject label() {
      return new JsonObject().put("fraud", fraud).put("pattern", pattern).put("group", id);
    }

    List<String> subjectIds() {
      List<String> ids = new ArrayList<>();
      sellers.forEach(s -> ids.add(s.id));
      buyers.forEach(b -> ids.add(b.id));
      return ids;
    }
  }
}
