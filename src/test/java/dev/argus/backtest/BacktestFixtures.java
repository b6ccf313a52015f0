package dev.argus.backtest;

/** A small labelled world whose subjects and decision times the tests work out by hand. */
final class BacktestFixtures {

  private BacktestFixtures() {
  }

  /**
   * Sellers S-1, S-2 (mule network, sharing a payout account), S-3 and S-5 (background), S-4 (family-address trap),
   * S-6 (no label: never decided); buyers B-1 (refund abuse) and B-2 (background); four transactions; the latest record
   * is the risk event E-1 at 2025-03-05T00:00:00Z.
   */
  static String world() {
    return """
        {"kind":"seller","id":"S-1","createdAt":"2025-01-01T00:00:00Z","legalName":"Mia Mulder","country":"GB","bankAccount":"GB00 MULE 0000 1111 22","label":{"fraud":true,"pattern":"mule_network","group":"mule_network-1"}}
        {"kind":"seller","id":"S-2","createdAt":"2025-01-02T00:00:00Z","legalName":"Max Mulder","country":"GB","bankAccount":"GB00 MULE 0000 1111 22","label":{"fraud":true,"pattern":"mule_network","group":"mule_network-1"}}
        {"kind":"seller","id":"S-3","createdAt":"2024-05-01T00:00:00Z","legalName":"Hanna Honest","country":"DE","label":{"fraud":false,"pattern":"none"}}
        {"kind":"seller","id":"S-4","createdAt":"2024-06-01T00:00:00Z","legalName":"Fritz Family","country":"DE","label":{"fraud":false,"pattern":"family_address","group":"family_address-1"}}
        {"kind":"seller","id":"S-5","createdAt":"2024-07-01T00:00:00Z","legalName":"Nina Normal","country":"DE","label":{"fraud":false,"pattern":"none"}}
        {"kind":"seller","id":"S-6","createdAt":"2024-08-01T00:00:00Z","legalName":"Ulf Unlabelled","country":"DE"}
        {"kind":"buyer","id":"B-1","createdAt":"2024-01-01T00:00:00Z","name":"Rita Refund","label":{"fraud":true,"pattern":"refund_abuse","group":"refund_abuse-1"}}
        {"kind":"buyer","id":"B-2","createdAt":"2024-01-01T00:00:00Z","name":"Bob Buyer","label":{"fraud":false,"pattern":"none"}}
        {"kind":"transaction","id":"T-1","at":"2025-03-01T10:00:00Z","sellerId":"S-3","buyerId":"B-1","amount":100,"currency":"EUR","status":"approved"}
        {"kind":"transaction","id":"T-2","at":"2025-03-02T10:00:00Z","sellerId":"S-3","buyerId":"B-2","amount":50,"currency":"EUR","status":"approved"}
        {"kind":"transaction","id":"T-3","at":"2025-03-03T10:00:00Z","sellerId":"S-1","buyerId":"B-2","amount":20,"currency":"GBP","status":"approved"}
        {"kind":"transaction","id":"T-4","at":"2025-02-03T10:00:00Z","sellerId":"S-1","buyerId":"B-1","amount":25,"currency":"GBP","status":"approved"}
        {"kind":"risk_event","id":"E-1","at":"2025-03-05T00:00:00Z","subjectId":"S-1","type":"chargeback_spike","severity":"high","details":{"window":"7d"}}
        """;
  }
}
