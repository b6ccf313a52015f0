package dev.argus.records;

import dev.argus.common.Fingerprinter;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Test records: a fixed fingerprint key, a validator, and the hand-made world the tool tests compute by hand. */
final class RecordFixtures {

  static final byte[] KEY = "records-test-key-of-32-bytes!!!!".getBytes(StandardCharsets.UTF_8);
  static final Fingerprinter FP = new Fingerprinter(KEY);
  static final RecordValidator VALIDATOR = new RecordValidator(FP, 65_536);
  static final String TAX_ID = "DE-TAX-99887766";
  static final String ACCOUNT = "DE89 3704 0044 0532 0130 00";
  static final String OTHER_ACCOUNT = "GB00 TEST 1111 2222 33";

  private RecordFixtures() {
  }

  static DomainRecord record(String json) {
    RecordValidator.Line line = VALIDATOR.line(1, json);
    if (line.record() == null) {
      throw new AssertionError("fixture refused: " + line.error());
    }
    return line.record();
  }

  static List<DomainRecord> records(String jsonl) {
    List<DomainRecord> out = new ArrayList<>();
    for (String line : jsonl.strip().split("\n")) {
      out.add(record(line));
    }
    return out;
  }

  /**
   * A small world whose signals are computed by hand in the tests: seller S-1 (six EUR transactions, one refund, one
   * chargeback, two payouts of which one to an unregistered account, one risk event, one case with S-2), seller S-2,
   * and a watchlist.
   */
  static String handWorld() {
    return """
        {"kind":"seller","id":"S-1","createdAt":"2025-01-01T00:00:00Z","legalName":"Jonas Marlowe","businessName":"Marlowe Prints","email":" a@shop.example ","phone":"+49 30 5550 1234","address":{"line1":"1 Mill Lane","city":"Berlin","postalCode":"10115","country":"DE"},"country":"DE","website":"https://www.shop-one.example/about","taxId":"%s","bankAccount":"%s","deviceIds":["dev-1"],"ips":["203.0.113.7"],"status":"active","label":{"fraud":true,"pattern":"mule_network","group":"mule_network-1"}}
        {"kind":"seller","id":"S-2","createdAt":"2025-02-01T00:00:00Z","legalName":"Ava Adler","country":"DE","label":{"fraud":false,"pattern":"none"}}
        {"kind":"buyer","id":"B-1","createdAt":"2024-06-01T00:00:00Z","name":"Ben Becker","email":"ben@example.com","ips":["198.51.100.9"]}
        {"kind":"transaction","id":"T-1","at":"2025-03-01T10:00:00Z","sellerId":"S-1","buyerId":"B-1","amount":100,"currency":"EUR","cardBin":"424242","cardLast4":"4242","cardCountry":"DE","status":"approved"}
        {"kind":"transaction","id":"T-2","at":"2025-03-02T10:00:00Z","sellerId":"S-1","buyerId":"B-1","amount":110,"currency":"EUR","status":"approved"}
        {"kind":"transaction","id":"T-3","at":"2025-03-03T10:00:00Z","sellerId":"S-1","buyerId":"B-1","amount":90,"currency":"EUR","status":"approved"}
        {"kind":"transaction","id":"T-4","at":"2025-03-04T10:00:00Z","sellerId":"S-1","buyerId":"B-1","amount":105,"currency":"EUR","status":"approved"}
        {"kind":"transaction","id":"T-5","at":"2025-03-05T10:00:00Z","sellerId":"S-1","buyerId":"B-1","amount":95,"currency":"EUR","status":"approved"}
        {"kind":"transaction","id":"T-6","at":"2025-03-10T10:00:00Z","sellerId":"S-1","buyerId":"B-1","amount":300,"currency":"EUR","status":"approved"}
        {"kind":"transaction","id":"T-9","at":"2025-03-04T12:00:00Z","sellerId":"S-2","amount":40,"currency":"EUR"}
        {"kind":"refund","id":"R-1","at":"2025-03-05T12:00:00Z","transactionId":"T-2","amount":110,"reason":"damaged"}
        {"kind":"chargeback","id":"CB-1","at":"2025-03-08T00:00:00Z","transactionId":"T-3","amount":90,"reason":"fraud_unauthorized"}
        {"kind":"refund","id":"R-9","at":"2025-03-06T00:00:00Z","transactionId":"T-9","amount":40}
        {"kind":"payout","id":"P-1","at":"2025-03-07T00:00:00Z","sellerId":"S-1","bankAccount":"%s","amount":200,"currency":"EUR"}
        {"kind":"payout","id":"P-2","at":"2025-03-09T00:00:00Z","sellerId":"S-1","bankAccount":"%s","amount":150,"currency":"EUR"}
        {"kind":"risk_event","id":"E-1","at":"2025-03-09T08:00:00Z","subjectId":"S-1","type":"login_new_device","severity":"medium","details":{"deviceId":"dev-9"}}
        {"kind":"case","id":"C-1","subjectIds":["S-1","S-2"],"outcome":"fraud","summary":"Mule network around account ending 3000.","openedAt":"2025-03-08T00:00:00Z","closedAt":"2025-03-20T00:00:00Z"}
        {"kind":"watchlist_entry","id":"W-1","type":"name","value":"Jonas Marlow","reason":"sanctions"}
        {"kind":"watchlist_entry","id":"W-2","type":"email","value":"A@Shop.example","reason":"fraud ring"}
        {"kind":"watchlist_entry","id":"W-3","type":"ip_range","value":"203.0.113.0/24","reason":"abuse"}
        {"kind":"watchlist_entry","id":"W-4","type":"bank_account","value":"GB00TEST1111222233","reason":"mule account"}
        {"kind":"watchlist_entry","id":"W-5","type":"name","value":"Completely Different Person","reason":"sanctions"}
        {"kind":"watchlist_entry","id":"W-6","type":"domain","value":"shop-one.example","reason":"phishing"}
        """.formatted(TAX_ID, ACCOUNT, ACCOUNT, OTHER_ACCOUNT);
  }

  static JsonObject item(JsonObject reply, int index) {
    return reply.getJsonArray("items").getJsonObject(index);
  }
}
