package dev.argus.eval.golden;

import dev.argus.eval.score.ChatRunView;
import dev.argus.eval.score.Terms;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The golden-set scores of an answer: expected-citation recall (share of expected citations the answer cites; an
 * expectation {@code doc} is met by any chunk of {@code doc}, {@code doc:3} only by chunk 3) and key-fact recall (share
 * of key facts whose content terms the answer holds at least {@link #FACT_COVERAGE} of).
 */
public final class GoldenScores {

  public static final double FACT_COVERAGE = 0.8;

  private GoldenScores() {
  }

  public static Double expectedCitationRecall(List<String> expected, ChatRunView run) {
    if (expected.isEmpty()) {
      return null;
    }
    Set<String> cited = new LinkedHashSet<>();
    for (ChatRunView.Sentence s : run.sentences()) {
      cited.addAll(s.citations());
    }
    int met = 0;
    for (String e : expected) {
      boolean hit = false;
      for (String c : cited) {
        if (c.equals(e) || (c.startsWith(e + ":") && c.substring(e.length() + 1).matches("\\d+"))) {
          hit = true;
          break;
        }
      }
      if (hit) {
        met++;
      }
    }
    return (double) met / expected.size();
  }

  public static Double keyFactRecall(List<String> facts, ChatRunView run) {
    if (facts.isEmpty()) {
      return null;
    }
    Set<String> answer = new LinkedHashSet<>();
    for (ChatRunView.Sentence s : run.sentences()) {
      answer.addAll(Terms.of(s.text()));
    }
    int met = 0;
    for (String f : facts) {
      Set<String> t = Terms.of(f);
      if (!t.isEmpty() && Terms.coverage(t, answer) >= FACT_COVERAGE) {
        met++;
      }
    }
    return (double) met / facts.size();
  }
}
