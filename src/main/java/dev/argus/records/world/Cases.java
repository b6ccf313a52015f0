package dev.argus.records.world;

import java.util.ArrayList;
import java.util.List;

import static dev.argus.records.world.Activity.DAY;

/**
 * The investigators' side of the world: case records about the planted groups (about 60% of fraud groups closed as
 * fraud, 20% still pending; half of the traps closed as legit) and a few background cases, with summaries that name
 * the subjects and the identifiers they share; and the watchlist (about half of the fraud groups' identifiers, plus
 * unrelated entries).
 */
final class Cases {

  private Cases() {
  }

  static void write(Population p, Emitter e) {
    Fakes f = p.f;
    record Draft(List<String> subjects, String outcome, String summary, long opened, Long closed) {
    }
    List<Draft> drafts = new ArrayList<>();
    for (Plans.Group g : p.groups) {
      double roll = f.rnd.nextDouble();
      String outcome = g.fraud ? (roll < 0.6 ? "fraud" : roll < 0.8 ? "pending" : null) : (roll < 0.5 ? "legit" : null);
      if (outcome == null) {
        continue;
      }
      long opened = g.caseAt > 0 ? Math.min(g.caseAt, p.end - 2 * DAY) : p.end - f.between(10, 60) * DAY - f.between(0, 86_399);
      Long closed = outcome.equals("pending") ? null : opened + f.between(3, 30) * DAY;
      if (closed != null && closed > p.end) {
        closed = null;
        outcome = "pending";
      }
      String summary = g.story + " Subjects: " + String.join(", ", g.subjectIds()) + ". Shared identifiers: "
          + String.join("; ", g.mentions) + "."
          + (outcome.equals("pending") ? " Under review." : " Closed as " + outcome + ".");
      drafts.add(new Draft(g.subjectIds(), outcome, summary, opened, closed));
    }
    for (Plans.Seller s : p.sellers) {
      if (s.label == Population.NO_PATTERN && f.chance(0.015)) {
        boolean pending = f.chance(0.35);
        long opened = p.end - f.between(5, 120) * DAY - f.between(0, 86_399);
        Long closed = pending ? null : Math.min(p.end, opened + f.between(2, 20) * DAY);
        drafts.add(new Draft(List.of(s.id), pending ? "pending" : "legit", "Routine review of seller " + s.id
            + " after a customer complaint about delivery times; documents and payout account "
            + "verified." + (pending ? " Under review." : " Closed as legit."), opened, closed));
      }
    }
    p.shuffle(drafts);
    for (int i = 0; i < drafts.size(); i++) {
      Draft d = drafts.get(i);
      e.kase("C-" + Fakes.pad(i + 1, 5), d.subjects(), d.outcome(), d.summary(), d.opened(), d.closed());
    }
  }

  static void watchlist(Population p, Emitter e) {
    Fakes f = p.f;
    List<String[]> entries = new ArrayList<>();
    for (Plans.Group g : p.groups) {
      if (g.fraud && !g.watch.isEmpty() && f.chance(0.5)) {
        for (String[] w : g.watch) {
          entries.add(new String[] {w[0], w[1], "linked to confirmed " + g.pattern.replace('_', ' ')});
        }
      }
    }
    int unrelated = Math.max(5, p.sellers.size() / 50);
    for (int i = 0; i < unrelated; i++) {
      switch (i % 4) {
        case 0 -> entries.add(new String[] {"name", f.first() + " " + f.last() + " " + f.last(), "sanctions list"});
        case 1 -> entries.add(new String[] {"email", "fraud" + f.between(1000, 9999) + "@blocked.test",
            "confirmed fraud elsewhere"});
        case 2 -> entries.add(new String[] {"ip", "198.51.100." + f.between(1, 254), "abuse reports"});
        default -> entries.add(new String[] {"domain", "scam-" + f.between(100, 999) + ".test", "phishing domain"});
      }
    }
    p.shuffle(entries);
    for (int i = 0; i < entries.size(); i++) {
      String[] w = entries.get(i);
      e.watchlist("W-" + Fakes.pad(i + 1, 5), w[0], w[1], w[2]);
    }
  }
}
