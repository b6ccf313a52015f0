package dev.argus.backtest;

import dev.argus.backtest.WorldIndex.Label;
import dev.argus.backtest.WorldIndex.Seller;
import dev.argus.backtest.WorldIndex.Tx;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which labelled subjects a backtest decides, and as of when. Sellers: every labelled seller, by onboarding, as of the
 * world's latest record ({@code end}), its own application time ({@code onboarding}) or a fixed {@code asOf}.
 * Transactions: the last transaction of every labelled seller and of every fraudulent buyer, each as of its own
 * time; a transaction is fraudulent when its buyer or its seller is, and carries that party's pattern (the buyer's
 * first). A sample keeps every subject of a pattern or trap and thins the background ({@code none}) evenly.
 */
final class Subjects {

  private Subjects() {
  }

  static List<LabelledSubject> select(WorldIndex world, BacktestRequest req) {
    List<LabelledSubject> out = new ArrayList<>();
    if (req.sellers()) {
      for (Seller s : world.sellers().values()) {
        Instant asOf = req.asOf() != null ? req.asOf()
            : "onboarding".equals(req.decisionTime()) && s.createdAt() != null ? s.createdAt() : world.latest();
        out.add(new LabelledSubject(s.id(), LabelledSubject.ONBOARDING, s.label().fraud(), s.label().pattern(),
            s.label().group(), asOf));
      }
    }
    if (req.transactions()) {
      Map<String, Tx> txs = new LinkedHashMap<>();
      for (Seller s : world.sellers().values()) {
        Tx tx = world.lastTxBySeller.get(s.id());
        if (tx != null) {
          txs.put(tx.id(), tx);
        }
      }
      world.buyers().forEach((id, label) -> {
        Tx tx = world.lastTxByBuyer.get(id);
        if (label.fraud() && tx != null) {
          txs.put(tx.id(), tx);
        }
      });
      for (Tx tx : txs.values()) {
        Label buyer = tx.buyerId() == null ? null : world.buyers().get(tx.buyerId());
        Seller seller = tx.sellerId() == null ? null : world.sellers().get(tx.sellerId());
        Label sellerLabel = seller == null ? null : seller.label();
        Label truth = buyer != null && buyer.fraud() ? buyer : sellerLabel != null && sellerLabel.fraud() ? sellerLabel
            : buyer != null && !LabelledSubject.NO_PATTERN.equals(buyer.pattern()) ? buyer
            : sellerLabel != null ? sellerLabel : buyer;
        if (truth == null) {
          continue;
        }
        out.add(new LabelledSubject(tx.id(), LabelledSubject.TRANSACTION, truth.fraud(), truth.pattern(),
            truth.group(), tx.at()));
      }
    }
    return req.sample() == null ? out : sample(out, req.sample());
  }

  /** Every planted subject, then background subjects at an even stride until {@code size} (or all planted ones). */
  static List<LabelledSubject> sample(List<LabelledSubject> all, int size) {
    List<LabelledSubject> planted = new ArrayList<>();
    List<LabelledSubject> background = new ArrayList<>();
    for (LabelledSubject s : all) {
      (LabelledSubject.NO_PATTERN.equals(s.pattern()) ? background : planted).add(s);
    }
    int room = Math.max(0, size - planted.size());
    List<LabelledSubject> out = new ArrayList<>(planted);
    if (room >= background.size()) {
      out.addAll(background);
    } else if (room > 0) {
      double stride = background.size() / (double) room;
      for (int i = 0; i < room; i++) {
        out.add(background.get((int) Math.floor(i * stride)));
      }
    }
    return out;
  }
}
