package dev.argus.records.world;

import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

import static dev.argus.records.world.Activity.DAY;

/**
 * The planted fraud patterns. Each creates one group whose members carry the group's ground-truth label, bends their
 * identities and trading into the pattern, and notes what a case summary would mention and what a watchlist would hold.
 */
final class Patterns {

  static final long HOUR = 3600;

  private Patterns() {
  }

  /** 3-5 sellers made up from one set of parts: one phone, one device, one address, one rare e-mail domain. */
  static void syntheticIdentity(Population p) {
    Fakes f = p.f;
    Plans.Group g = p.group("synthetic_identity", true);
    int k = f.between(3, 5);
    long born = p.timeInWindow(70);
    String phone = p.nextPhone();
    String device = f.device();
    String domain = "mailbox-" + f.between(100, 999) + ".test";
    Fakes.Address base = f.address("US");
    for (int i = 0; i < k; i++) {
      Plans.Seller s = p.seller(g.label(), 0);
      s.createdAt = born + f.between(0, 3 * 86_400);
      s.activeFrom = s.createdAt;
      s.activeTo = s.createdAt + f.between(40, 60) * DAY;
      s.country = "US";
      s.currency = "USD";
      s.phone = phone;
      s.deviceIds = new ArrayList<>(List.of(device));
      s.email = s.legalName.toLowerCase().replace(' ', '.') + "@" + domain;
      s.address = new Fakes.Address(i % 2 == 0 ? base.line1() : base.line1() + ", Apt " + (i + 1), base.city(),
          base.postalCode(), "US");
      s.transactions = f.between(20, 40);
      s.medianAmount = 50;
      s.refundRate = 0.01;
      s.chargebackRate = 0.02;
      long bust = s.activeTo - f.between(5, 10) * DAY;
      for (int t = 0; t < f.between(15, 30); t++) {
        s.extra.add(new Plans.Tx(bust + f.between(0, 5 * 86_400), f.pick(p.pool), f.between(300, 900) + 0.99,
            false, f.chance(0.45), null));
      }
      p.event(s, s.activeTo, "chargeback_spike", "high", new JsonObject().put("window", "7d"));
      g.sellers.add(s);
    }
    g.caseAt = born + 65 * DAY;
    g.mentions.addAll(List.of("phone " + phone, "device " + device, "e-mail domain " + domain, base.line1()));
    g.story = "Synthetic identities: several seller applications built from one phone, one device and one address, "
        + "opened within days of each other, traded briefly, then busted out with high-value sales that came back "
        + "as chargebacks.";
    g.watch.add(new String[] {"phone", phone});
    g.watch.add(new String[] {"domain", domain});
  }

  /** 5-8 sellers with distinct identities paying out daily to one bank account. */
  static void muleNetwork(Population p) {
    Fakes f = p.f;
    Plans.Group g = p.group("mule_network", true);
    String account = f.bankAccount("GB");
    int k = f.between(5, 8);
    for (int i = 0; i < k; i++) {
      Plans.Seller s = p.seller(g.label(), f.between(30, 200));
      s.bankAccount = account;
      s.payoutEveryDays = 1;
      s.medianAmount = 25;
      s.transactions = f.between(40, 80);
      s.refundRate = 0.005;
      g.sellers.add(s);
    }
    String last4 = account.substring(account.length() - 4);
    Plans.Seller first = g.sellers.get(0);
    g.mentions.addAll(List.of("payout account ending " + last4, first.email, g.sellers.get(1).email));
    g.story = "Mule network: unrelated-looking sellers took many small card payments from unrelated buyers and paid "
        + "everything out within a day to one bank account.";
    g.watch.add(new String[] {"bank_account", account});
    g.watch.add(new String[] {"name", misspelled(first.legalName)});
  }

  /** 3-5 sellers and as many buyers who share their devices and networks, trading round sums in a circle. */
  static void collusionRing(Population p) {
    Fakes f = p.f;
    Plans.Group g = p.group("collusion_ring", true);
    int k = f.between(3, 5);
    for (int i = 0; i < k; i++) {
      Plans.Seller s = p.seller(g.label(), f.between(60, 300));
      s.roundAmounts = true;
      s.medianAmount = 400;
      s.sigma = 0.4;
      s.transactions = f.between(20, 40);
      s.refundRate = 0.005;
      g.sellers.add(s);
    }
    for (int i = 0; i < k; i++) {
      Plans.Buyer b = p.buyer(g.label(), f.between(30, 300));
      Plans.Seller next = g.sellers.get((i + 1) % k);
      b.deviceIds = new ArrayList<>(List.of(next.deviceIds.get(0)));
      String sellerIp = next.ips.get(0).contains(":") ? f.ipv4() : next.ips.get(0);
      b.ips = new ArrayList<>(List.of(f.sameNet24(sellerIp)));
      g.buyers.add(b);
    }
    for (Plans.Seller s : g.sellers) {
      s.buyers = g.buyers;
    }
    g.mentions.addAll(List.of("device " + g.sellers.get(1).deviceIds.get(0), "IP " + g.buyers.get(0).ips.get(0)));
    g.story = "Collusion ring: buyers controlled by the sellers' own devices and networks bought from each seller of "
        + "the ring in round sums, moving money in a circle.";
    g.watch.add(new String[] {"ip", g.buyers.get(0).ips.get(0)});
  }

  /** An established seller: a login from a new device and foreign IP, a new payout account, then a burst of sales. */
  static void accountTakeover(Population p) {
    Fakes f = p.f;
    Plans.Group g = p.group("account_takeover", true);
    Plans.Seller s = p.seller(g.label(), f.between(300, 900));
    long at = p.end - f.between(20, 60) * DAY;
    String device = f.device();
    String ip = f.ipv4();
    s.takeoverAt = at + 2 * HOUR;
    s.takeoverAccount = f.bankAccount(f.pick(Fakes.FOREIGN));
    s.deviceIds.add(device);
    s.ips.add(ip);
    s.payoutEveryDays = 1;
    for (int t = 0; t < f.between(10, 20); t++) {
      s.extra.add(new Plans.Tx(at + f.between(3 * 3600, 10 * 86_400), f.pick(p.pool), f.between(200, 800) + 0.5,
          false, f.chance(0.3), null));
    }
    p.event(s, at, "login_new_device", "medium", new JsonObject().put("deviceId", device).put("ip", ip)
        .put("country", f.pick(Fakes.FOREIGN)));
    p.event(s, at + HOUR, "bank_account_changed", "high", new JsonObject().put("newAccountLast4",
        s.takeoverAccount.substring(s.takeoverAccount.length() - 4)));
    g.sellers.add(s);
    g.caseAt = at + 12 * DAY;
    g.mentions.addAll(List.of("device " + device, "IP " + ip, "new payout account ending "
        + s.takeoverAccount.substring(s.takeoverAccount.length() - 4)));
    g.story = "Account takeover: a long-standing seller account was accessed from a new device and IP, the payout "
        + "account was changed an hour later, and high-value sales were paid out to the new account.";
    g.watch.add(new String[] {"ip", ip});
  }

  /** A recent seller whose sales are paid with cards from abroad and come back as fraud chargebacks. */
  static void triangulation(Population p) {
    Fakes f = p.f;
    Plans.Group g = p.group("triangulation", true);
    Plans.Seller s = p.seller(g.label(), f.between(60, 200));
    s.businessName = f.last() + " Electronics Outlet";
    s.foreignCards = true;
    s.medianAmount = 180;
    s.sigma = 0.5;
    s.transactions = f.between(80, 150);
    s.chargebackRate = 0.25;
    s.refundRate = 0.01;
    g.sellers.add(s);
    g.mentions.addAll(List.of(s.email, s.website));
    g.story = "Triangulation: the shop sold below market and paid its suppliers with stolen cards; buyers' cards were "
        + "issued abroad, far from the buyers' own countries, and a quarter of sales ended in fraud chargebacks.";
    if (f.chance(0.5)) {
      g.watch.add(new String[] {"email", s.email});
    }
  }

  /** 2-3 buyers who buy from several sellers and get most of it refunded. */
  static void refundAbuse(Population p, List<Plans.Seller> background) {
    Fakes f = p.f;
    Plans.Group g = p.group("refund_abuse", true);
    long last = p.end - 25 * DAY;
    for (int i = 0; i < f.between(2, 3); i++) {
      Plans.Buyer b = p.buyer(g.label(), f.between(60, 1500));
      for (int m = 0; m < f.between(4, 8); m++) {
        Plans.Seller s = f.pick(tradingBefore(background, last - DAY));
        long from = Math.max(s.activeFrom, b.createdAt);
        for (int t = 0; t < f.between(3, 6); t++) {
          s.extra.add(new Plans.Tx(from + (long) (f.rnd.nextDouble() * (last - from)), b, f.amount(120, 0.5),
              f.chance(0.7), false, null));
        }
      }
      g.buyers.add(b);
    }
    g.mentions.addAll(List.of(g.buyers.get(0).email, g.buyers.get(1).email));
    g.story = "Refund abuse: a few buyers bought repeatedly from many sellers and claimed refunds on most orders "
        + "(\"not as described\", \"damaged\").";
    g.watch.add(new String[] {"email", g.buyers.get(0).email});
  }

  /** 10-20 new buyers on one device and network, plus-tagged e-mails, one promo purchase each from one seller. */
  static void promotionAbuse(Population p, List<Plans.Seller> background) {
    Fakes f = p.f;
    Plans.Group g = p.group("promotion_abuse", true);
    long at = p.timeInWindow(10);
    Plans.Seller target = f.pick(tradingBefore(background, at));
    String device = f.device();
    String ip = f.ipv4();
    String base = f.first().toLowerCase() + "." + f.between(10, 99);
    for (int i = 0; i < f.between(10, 20); i++) {
      Plans.Buyer b = p.buyer(g.label(), 0);
      b.createdAt = at + f.between(0, 86_400);
      b.email = base + "+" + (i + 1) + "@mail.test";
      b.deviceIds = new ArrayList<>(List.of(device));
      b.ips = new ArrayList<>(List.of(f.sameNet24(ip)));
      target.extra.add(new Plans.Tx(b.createdAt + f.between(600, 6 * 3600), b, f.between(10, 30) + 0.99, false, false,
          "WELCOME10"));
      g.buyers.add(b);
    }
    String net = ip.substring(0, ip.lastIndexOf('.')) + ".0/24";
    g.caseAt = at + 5 * DAY;
    g.mentions.addAll(List.of("device " + device, "network " + net, base + "+N@mail.test"));
    g.story = "Promotion abuse: a batch of new buyer accounts, opened within a day from one device and network with "
        + "plus-tagged copies of one e-mail address, each redeemed the welcome promotion once at the same shop.";
    g.watch.add(new String[] {"ip_range", net});
  }

  /** A seller whose sales sit just under the 10,000 reporting threshold. */
  static void structuring(Population p) {
    Fakes f = p.f;
    Plans.Group g = p.group("structuring", true);
    Plans.Seller s = p.seller(g.label(), f.between(90, 400));
    s.country = "US";
    s.currency = "USD";
    s.structureBelow = 10_000;
    s.transactions = f.between(20, 40);
    s.refundRate = 0.0;
    s.chargebackRate = 0.0;
    g.sellers.add(s);
    g.mentions.addAll(List.of(s.email, "amounts between 9,510 and 9,990 USD"));
    g.story = "Structuring: sales were split into amounts just under the 10,000 USD reporting threshold, repeatedly, "
        + "from a handful of buyers.";
    if (f.chance(0.5)) {
      g.watch.add(new String[] {"name", s.legalName});
    }
  }

  /**
   * The background sellers already trading at {@code at} (so that no planted sale predates its seller); all of them
   * when none is (cannot happen with the window and ages of {@link Population#seller(JsonObject)}, kept total anyway).
   */
  static List<Plans.Seller> tradingBefore(List<Plans.Seller> background, long at) {
    List<Plans.Seller> open = background.stream().filter(s -> s.activeFrom < at).toList();
    return open.isEmpty() ? background : open;
  }

  /** A name with one letter of its last word dropped (a near miss for fuzzy matching). */
  static String misspelled(String name) {
    int i = name.lastIndexOf(' ');
    String last = name.substring(i + 1);
    return last.length() < 4 ? name + "e" : name.substring(0, i + 1) + last.substring(0, last.length() - 1);
  }
}
