package dev.argus.records.world;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Writes one seller's trading: its transactions in time order (regular ones drawn from its plan plus the explicit
 * ones a pattern planted), then the refunds and chargebacks they lead to (those dated before the world's end), then
 * the payouts of approved sales net of refunds every {@code payoutEveryDays} (to the takeover account after a takeover).
 */
final class Activity {

  static final long DAY = 86_400;

  private final Fakes f;
  private final Emitter out;
  private final List<Plans.Buyer> pool;
  private final long end;

  Activity(Fakes f, Emitter out, List<Plans.Buyer> pool, long end) {
    this.f = f;
    this.out = out;
    this.pool = pool;
    this.end = end;
  }

  private record Reversal(long at, String txId, double amount, boolean chargeback, String reason) {
  }

  void emit(Plans.Seller s) {
    List<Plans.Tx> planned = new ArrayList<>(s.extra);
    long span = Math.max(1, s.activeTo - s.activeFrom);
    for (int i = 0; i < s.transactions; i++) {
      long at = s.activeFrom + (long) (f.rnd.nextDouble() * span);
      Plans.Buyer buyer = s.buyers.isEmpty() ? f.pick(pool) : f.pick(s.buyers);
      boolean refund = f.chance(s.refundRate);
      boolean chargeback = !refund && f.chance(s.chargebackRate);
      planned.add(new Plans.Tx(at, buyer, amount(s), refund, chargeback, null));
    }
    planned.sort(Comparator.comparingLong(Plans.Tx::at)); // stable: ties keep their planned order
    List<Reversal> reversals = new ArrayList<>();
    List<long[]> sales = new ArrayList<>(); // {at, cents} of approved sales
    for (Plans.Tx t : planned) {
      Plans.Buyer b = t.buyer();
      Fakes.Card card = s.foreignCards ? f.card(f.pick(Fakes.FOREIGN)) : f.pick(b.cards);
      boolean reversed = t.refund() || t.chargeback();
      String status = !reversed && f.chance(0.03) ? "declined" : "approved";
      String id = out.transaction(s.id, b, t.at(), t.amount(), s.currency, card, f.pick(b.deviceIds), f.pick(b.ips),
          b.country, status, t.promoCode());
      if (!"approved".equals(status)) {
        continue;
      }
      sales.add(new long[] {t.at(), Math.round(t.amount() * 100)});
      if (t.refund()) {
        double amount = f.chance(0.8) ? t.amount() : Math.round(t.amount() * 50) / 100.0;
        reversals.add(new Reversal(t.at() + f.between(1, 20) * DAY + f.between(0, 86_399), id, Math.max(1, amount),
            false, f.pick(List.of("not_as_described", "damaged", "changed_mind", "late_delivery"))));
      } else if (t.chargeback()) {
        reversals.add(new Reversal(t.at() + f.between(20, 60) * DAY + f.between(0, 86_399), id, t.amount(), true,
            s.foreignCards ? "fraud_unauthorized" : f.pick(List.of("fraud_unauthorized", "not_received",
                "duplicate", "not_as_described"))));
      }
    }
    reversals.sort(Comparator.comparingLong(Reversal::at));
    List<long[]> refunded = new ArrayList<>();
    for (Reversal r : reversals) {
      if (r.at() > end) {
        continue;
      }
      if (r.chargeback()) {
        out.chargeback(r.txId(), r.at(), r.amount(), r.reason());
      } else {
        out.refund(r.txId(), r.at(), r.amount(), r.reason());
        refunded.add(new long[] {r.at(), Math.round(r.amount() * 100)});
      }
    }
    payouts(s, sales, refunded);
  }

  private double amount(Plans.Seller s) {
    if (s.structureBelow > 0) {
      return Math.round((s.structureBelow - f.between(10, 490) - f.rnd.nextDouble()) * 100) / 100.0;
    }
    double a = f.amount(s.medianAmount, s.sigma);
    return s.roundAmounts ? Math.max(50, Math.round(a / 50) * 50.0) : a;
  }

  private void payouts(Plans.Seller s, List<long[]> sales, List<long[]> refunded) {
    long step = s.payoutEveryDays * DAY;
    long balance = 0;
    int si = 0;
    int ri = 0;
    for (long t = s.activeFrom + step; t <= end; t += step) {
      while (si < sales.size() && sales.get(si)[0] <= t) {
        balance += sales.get(si++)[1];
      }
      while (ri < refunded.size() && refunded.get(ri)[0] <= t) {
        balance -= refunded.get(ri++)[1];
      }
      if (balance > 100) {
        String account = s.takeoverAt > 0 && t >= s.takeoverAt ? s.takeoverAccount : s.bankAccount;
        out.payout(s.id, t + f.between(0, 3600), account, balance / 100.0, s.currency);
        balance = 0;
      }
    }
  }
}
