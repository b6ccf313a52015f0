package dev.argus.records.world;

import io.vertx.core.json.JsonObject;

import java.io.Writer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static dev.argus.records.world.Activity.DAY;

/**
 * Generates a synthetic fraud-domain world as JSON Lines (the records wire format), deterministically: the same
 * {@code sellers} and {@code seed} give the same bytes. The world spans the 180 days before {@link #END}: background
 * sellers and buyers with realistic noise (log-normal activity and amounts, refunds, chargebacks, declines, low-severity
 * alerts, a few legit and pending cases), and, per {@code sellers / 400} (at least one each), the planted patterns —
 * synthetic-identity clusters, mule networks, collusion rings, account takeovers, triangulation, refund abuse, promotion
 * abuse, structuring — and the false-positive traps (a family sharing an address, a co-working space sharing an IP
 * range, a marketplace agency). Every seller and buyer carries a ground-truth {@code label}
 * {@code {fraud, pattern, group?}} for measurement; case summaries mention the groups' identifiers; about half of the
 * fraud groups have identifiers on the watchlist. About 100 transactions per seller: 10,000 sellers ≈ 1,000,000.
 */
public final class WorldGenerator {

  public static final Instant END = Instant.parse("2025-06-30T00:00:00Z");
  public static final int WINDOW_DAYS = 180;
  public static final int MIN_SELLERS = 60;
  public static final int SELLERS_PER_GROUP = 400;

  /** Counts of what was written: lines per kind, groups per pattern. */
  public record Summary(Map<String, Long> lines, Map<String, Long> groups) {
    public long total() {
      return lines.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  private WorldGenerator() {
  }

  public static Summary generate(int sellers, long seed, Writer out) {
    if (sellers < MIN_SELLERS) {
      throw new IllegalArgumentException("a world needs at least " + MIN_SELLERS + " sellers, got " + sellers);
    }
    Fakes f = new Fakes(new SplittableRandom(seed));
    long end = END.getEpochSecond();
    Population p = new Population(f, end - WINDOW_DAYS * DAY, end);
    for (int i = 0; i < 2 * sellers; i++) {
      p.pool.add(p.buyer(Population.NO_PATTERN));
    }
    int groups = Math.max(1, sellers / SELLERS_PER_GROUP);
    for (int i = 0; i < groups; i++) {
      Patterns.syntheticIdentity(p);
      Patterns.muleNetwork(p);
      Patterns.collusionRing(p);
      Patterns.accountTakeover(p);
      Patterns.triangulation(p);
      Patterns.structuring(p);
      Traps.familyAddress(p);
      Traps.coworkingIp(p);
      Traps.agency(p);
    }
    if (p.sellers.size() > sellers - 10) {
      throw new IllegalArgumentException("the planted patterns need more sellers than " + sellers);
    }
    List<Plans.Seller> background = new ArrayList<>();
    while (p.sellers.size() < sellers) {
      background.add(p.seller(Population.NO_PATTERN));
    }
    for (int i = 0; i < groups; i++) {
      Patterns.refundAbuse(p, background);
      Patterns.promotionAbuse(p, background);
    }
    noise(p, background);
    p.assignIds();
    Emitter e = new Emitter(out);
    Cases.watchlist(p, e);
    p.sellers.forEach(e::seller);
    p.buyers.forEach(e::buyer);
    Activity activity = new Activity(f, e, p.pool, end);
    p.sellers.forEach(activity::emit);
    p.events.stream().sorted(java.util.Comparator.comparingLong(Population.Event::at))
        .forEach(ev -> e.riskEvent(ev.subjectId(), ev.at(), ev.type(), ev.severity(), ev.details()));
    Cases.write(p, e);
    Map<String, Long> byPattern = new java.util.TreeMap<>();
    p.groups.forEach(g -> byPattern.merge(g.pattern, 1L, Long::sum));
    return new Summary(e.counts(), byPattern);
  }

  /** Low-severity alerts on a few honest sellers (false alarms are part of real data). */
  private static void noise(Population p, List<Plans.Seller> background) {
    Fakes f = p.f;
    for (Plans.Seller s : background) {
      if (f.chance(0.04)) {
        String type = f.pick(List.of("velocity_alert", "address_verification_failed", "ip_country_mismatch"));
        p.event(s, Math.max(s.activeFrom, p.timeInWindow(1)), type, f.chance(0.8) ? "low" : "medium",
            new JsonObject().put("source", "rules"));
      }
    }
  }
}
