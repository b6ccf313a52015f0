package dev.argus.records.world;

import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The world being planned: every seller, buyer, group and pending risk event, with factories for ordinary sellers and
 * buyers (the background) that patterns and traps then bend. Ids are given last, in shuffled order ({@link #assignIds}).
 */
final class Population {

  static final JsonObject NO_PATTERN = new JsonObject().put("fraud", false).put("pattern", "none");
  private static final Map<String, String> CURRENCY = Map.of("US", "USD", "GB", "GBP", "CA", "CAD");

  final Fakes f;
  final long start;
  final long end;
  final List<Plans.Seller> sellers = new ArrayList<>();
  final List<Plans.Buyer> buyers = new ArrayList<>();
  /** The background buyers ordinary trading draws from (planted buyers trade only as their pattern says). */
  final List<Plans.Buyer> pool = new ArrayList<>();
  final List<Plans.Group> groups = new ArrayList<>();
  final List<Event> events = new ArrayList<>();
  private long phones;
  private long emails;

  /** A risk event to write after the activity; its subject is a seller or buyer plan (ids come last). */
  record Event(Object subject, long at, String type, String severity, JsonObject details) {
    String subjectId() {
      return subject instanceof Plans.Seller s ? s.id : ((Plans.Buyer) subject).id;
    }
  }

  Population(Fakes f, long start, long end) {
    this.f = f;
    this.start = start;
    this.end = end;
  }

  String nextPhone() {
    return Fakes.phone(phones++);
  }

  int nextEmailNumber() {
    return (int) ++emails;
  }

  static String currency(String country) {
    return CURRENCY.getOrDefault(country, "EUR");
  }

  /** An ordinary seller created {@code ageDays} before the world's end, trading from then (or the window's start). */
  Plans.Seller seller(JsonObject label, int ageDays) {
    Plans.Seller s = new Plans.Seller();
    s.createdAt = end - ageDays * Activity.DAY - f.between(0, 86_399);
    String first = f.first();
    String last = f.last();
    s.legalName = first + " " + last;
    s.businessName = f.businessName();
    String domain = Fakes.slug(s.businessName) + "-" + sellers.size() + ".example";
    s.website = "https://www." + domain;
    s.email = f.chance(0.7) ? "contact@" + domain : f.email(first, last, nextEmailNumber());
    s.phone = nextPhone();
    s.country = f.pick(Fakes.COUNTRIES);
    s.address = f.address(s.country);
    s.taxId = f.taxId();
    s.bankAccount = f.bankAccount(s.country);
    s.deviceIds.add(f.device());
    if (f.chance(0.4)) {
      s.deviceIds.add(f.device());
    }
    s.ips.add(f.ipv4());
    if (f.chance(0.5)) {
      s.ips.add(f.chance(0.3) ? f.ipv6() : f.ipv4());
    }
    s.label = label;
    s.currency = currency(s.country);
    s.activeFrom = Math.max(s.createdAt, start);
    s.activeTo = end;
    double activeShare = (double) (s.activeTo - s.activeFrom) / (end - start);
    s.transactions = (int) Math.min(3000, Math.round(f.amount(75, 0.9) * activeShare));
    s.medianAmount = f.amount(40, 0.6);
    s.sigma = 0.6 + f.rnd.nextDouble() * 0.4;
    s.refundRate = 0.01 + f.rnd.nextDouble() * 0.03;
    s.chargebackRate = 0.001 + f.rnd.nextDouble() * 0.005;
    s.payoutEveryDays = f.pick(List.of(1, 7, 7, 14));
    sellers.add(s);
    return s;
  }

  /** A background seller of a typical age (10% opened within the last 60 days). */
  Plans.Seller seller(JsonObject label) {
    return seller(label, f.chance(0.1) ? f.between(5, 60) : f.between(60, 900));
  }

  Plans.Buyer buyer(JsonObject label, int ageDays) {
    Plans.Buyer b = new Plans.Buyer();
    b.createdAt = end - ageDays * Activity.DAY - f.between(0, 86_399);
    String first = f.first();
    String last = f.last();
    b.name = first + " " + last;
    b.email = f.email(first, last, nextEmailNumber());
    b.phone = nextPhone();
    b.country = f.pick(Fakes.COUNTRIES);
    b.address = f.address(b.country);
    b.deviceIds.add(f.device());
    if (f.chance(0.3)) {
      b.deviceIds.add(f.device());
    }
    b.ips.add(f.chance(0.2) ? f.ipv6() : f.ipv4());
    if (f.chance(0.4)) {
      b.ips.add(f.ipv4());
    }
    b.cards.add(f.card(f.chance(0.05) ? f.pick(Fakes.FOREIGN) : b.country));
    if (f.chance(0.3)) {
      b.cards.add(f.card(b.country));
    }
    b.label = label;
    buyers.add(b);
    return b;
  }

  Plans.Buyer buyer(JsonObject label) {
    return buyer(label, f.between(10, 1500));
  }

  Plans.Group group(String pattern, boolean fraud) {
    long n = groups.stream().filter(g -> g.pattern.equals(pattern)).count() + 1;
    Plans.Group g = new Plans.Group(pattern, (int) n, fraud);
    groups.add(g);
    return g;
  }

  void event(Object subject, long at, String type, String severity, JsonObject details) {
    events.add(new Event(subject, at, type, severity, details));
  }

  /**
   * Numbers sellers and buyers in a shuffled order ({@code S-000001}, {@code B-0000001}, ...), so that an id says
   * nothing about the pattern that planted it.
   */
  void assignIds() {
    shuffle(sellers);
    shuffle(buyers);
    for (int i = 0; i < sellers.size(); i++) {
      sellers.get(i).id = "S-" + Fakes.pad(i + 1, 6);
    }
    for (int i = 0; i < buyers.size(); i++) {
      buyers.get(i).id = "B-" + Fakes.pad(i + 1, 7);
    }
  }

  <T> void shuffle(List<T> list) {
    for (int i = list.size() - 1; i > 0; i--) {
      java.util.Collections.swap(list, i, f.rnd.nextInt(i + 1));
    }
  }

  /** A uniformly random time in the world's window, at least {@code marginDays} before its end. */
  long timeInWindow(int marginDays) {
    return start + (long) (f.rnd.nextDouble() * (end - start - marginDays * Activity.DAY));
  }
}
