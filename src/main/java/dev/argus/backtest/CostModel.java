package dev.argus.backtest;

import dev.argus.config.BacktestConf;
import io.vertx.core.json.JsonObject;

/**
 * What outcomes cost: {@code missedFraud} per fraudulent subject let through, {@code wrongBlock} per honest subject
 * stopped, {@code review} per subject sent to a person (a fraudulent subject in review counts as caught, an honest one
 * as released: the person's time is the cost). {@code maxReviewRate} caps the share of reviews a proposal may produce.
 */
public record CostModel(double missedFraud, double wrongBlock, double review, double maxReviewRate) {

  public CostModel {
    if (missedFraud < 0 || wrongBlock < 0 || review < 0 || maxReviewRate < 0 || maxReviewRate > 1) {
      throw new IllegalArgumentException("costs must be ≥ 0 and maxReviewRate in [0, 1]");
    }
  }

  public static CostModel of(BacktestConf conf) {
    return new CostModel(conf.missedFraudCost(), conf.wrongBlockCost(), conf.reviewCost(), conf.maxReviewRate());
  }

  /** Expected cost of these outcome counts. */
  public double cost(long fraudPassed, long honestStopped, long reviewed) {
    return missedFraud * fraudPassed + wrongBlock * honestStopped + review * reviewed;
  }

  public JsonObject toJson() {
    return new JsonObject().put("missedFraudCost", missedFraud).put("wrongBlockCost", wrongBlock)
        .put("reviewCost", review).put("maxReviewRate", maxReviewRate);
  }
}
