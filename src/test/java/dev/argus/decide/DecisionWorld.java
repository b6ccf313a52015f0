package dev.argus.decide;

/**
 * The small labelled world of the decision tests, as JSON Lines for {@code POST /api/records}. Figures the tests
 * compute by hand (as of {@link #AS_OF}):
 * <ul>
 *   <li>S-OK: account 517 days old, four transactions, nothing else — every signal at its no-risk level;</li>
 *   <li>S-BAD: account 30 days old, e-mail on the watchlist (exact), one chargeback on four transactions (ratio 0.25),
 *   one case closed as fraud;</li>
 *   <li>S-IR: clean like S-OK but registered in a sanctioned country;</li>
 *   <li>T-BIG: a 20,000 EUR transaction of S-OK (above the 10,000 amount limit).</li>
 * </ul>
 */
final class DecisionWorld {

  static final String AS_OF = "2025-06-01T00:00:00Z";

  private DecisionWorld() {
  }

  static String jsonl() {
    return """
        {"kind":"seller","id":"S-OK","createdAt":"2024-01-01T00:00:00Z","legalName":"Olga Kern","email":"olga@good.example","country":"DE","status":"active"}
        {"kind":"seller","id":"S-BAD","createdAt":"2025-05-02T00:00:00Z","legalName":"Bad Actor","email":"bad@mule.example","country":"FR","status":"active"}
        {"kind":"seller","id":"S-IR","createdAt":"2024-01-01T00:00:00Z","legalName":"Iris Rahimi","email":"iris@clean.example","country":"IR","status":"active"}
        {"kind":"transaction","id":"T-OK-1","at":"2025-05-10T10:00:00Z","sellerId":"S-OK","amount":100,"currency":"EUR","status":"approved"}
        {"kind":"transaction","id":"T-OK-2","at":"2025-05-12T10:00:00Z","sellerId":"S-OK","amount":102,"currency":"EUR","status":"approved"}
        {"kind":"transaction","id":"T-OK-3","at":"2025-05-14T10:00:00Z","sellerId":"S-OK","amount":98,"currency":"EUR","status":"approved"}
        {"kind":"transaction","id":"T-OK-4","at":"2025-05-16T10:00:00Z","sellerId":"S-OK","amount":101,"currency":"EUR","status":"approved"}
        {"kind":"transaction","id":"T-OK-5","at":"2025-05-18T10:00:00Z","sellerId":"S-OK","amount":99,"currency":"EUR","status":"approved"}
        {"kind":"transaction","id":"T-BIG","at":"2025-05-30T10:00:00Z","sellerId":"S-OK","amount":20000,"currency":"EUR","status":"approved"}
        {"kind":"transaction","id":"T-BAD-1","at":"2025-05-10T10:00:00Z","sellerId":"S-BAD","amount":50,"currency":"EUR","status":"approved"}
        {"kind":"transaction","id":"T-BAD-2","at":"2025-05-11T10:00:00Z","sellerId":"S-BAD","amount":60,"currency":"EUR","status":"approved"}
        {"kind":"transaction","id":"T-BAD-3","at":"2025-05-12T10:00:00Z","sellerId":"S-BAD","amount":55,"currency":"EUR","status":"approved"}
        {"kind":"transaction","id":"T-BAD-4","at":"2025-05-13T10:00:00Z","sellerId":"S-BAD","amount":65,"currency":"EUR","status":"approved"}
        {"kind":"chargeback","id":"CB-BAD-1","at":"2025-05-20T00:00:00Z","transactionId":"T-BAD-2","amount":60,"reason":"fraud_unauthorized"}
        {"kind":"case","id":"C-BAD","subjectIds":["S-BAD"],"outcome":"fraud","summary":"Mule account.","openedAt":"2025-05-21T00:00:00Z","closedAt":"2025-05-25T00:00:00Z"}
        {"kind":"watchlist_entry","id":"W-BAD","type":"email","value":"bad@mule.example","reason":"fraud ring"}
        """;
  }
}
