package dev.argus.records;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static dev.argus.records.RecordFixtures.ACCOUNT;
import static dev.argus.records.RecordFixtures.FP;
import static dev.argus.records.RecordFixtures.TAX_ID;
import static dev.argus.records.RecordFixtures.VALIDATOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Validation per field and the stored form (fingerprints, metadata, no label, trimmed values). */
class RecordValidatorTest {

  private static final String SELLER = "{\"kind\":\"seller\",\"id\":\"S-1\",\"createdAt\":\"2025-01-01T00:00:00Z\","
      + "\"legalName\":\"Jonas Marlowe\",\"country\":\"DE\"";
  private static final String TX = "{\"kind\":\"transaction\",\"id\":\"T-1\",\"at\":\"2025-03-01T10:00:00Z\","
      + "\"sellerId\":\"S-1\",\"amount\":10,\"currency\":\"EUR\"";

  /** Each line is wrong in exactly one field; the error names that field (column 2) and says why (column 3). */
  @ParameterizedTest(name = "{1}: {2}")
  @CsvSource(delimiter = '|', value = {
      "{\"id\":\"S-1\"}|kind|is required",
      "{\"kind\":\"merchant\",\"id\":\"S-1\"}|kind|must be one of seller, buyer",
      "{\"kind\":\"seller\",\"createdAt\":\"2025-01-01T00:00:00Z\",\"legalName\":\"A\",\"country\":\"DE\"}|id|is required",
      "{\"kind\":\"seller\",\"id\":\"S 1\",\"createdAt\":\"2025-01-01T00:00:00Z\",\"legalName\":\"A\",\"country\":\"DE\"}|id|must match",
      "{\"kind\":\"seller\",\"id\":\"S-1\",\"createdAt\":\"yesterday\",\"legalName\":\"A\",\"country\":\"DE\"}|createdAt|ISO-8601",
      "{\"kind\":\"seller\",\"id\":\"S-1\",\"createdAt\":\"2025-01-01T00:00:00\",\"legalName\":\"A\",\"country\":\"DE\"}|createdAt|with a zone",
      "{\"kind\":\"seller\",\"id\":\"S-1\",\"createdAt\":\"2025-01-01T00:00:00Z\",\"country\":\"DE\"}|legalName|is required",
      "{\"kind\":\"seller\",\"id\":\"S-1\",\"createdAt\":\"2025-01-01T00:00:00Z\",\"legalName\":\"A\",\"country\":\"Germany\"}|country|alpha-2",
      "SELLER,\"email\":\"not-an-email\"}|email|email address",
      "SELLER,\"phone\":\"call me\"}|phone|phone number",
      "SELLER,\"ips\":[\"300.1.2.3\"]}|ips[0]|IPv4 or IPv6",
      "SELLER,\"ips\":\"1.2.3.4\"}|ips|array of strings",
      "SELLER,\"deviceIds\":[\"\"]}|deviceIds[0]|non-empty",
      "SELLER,\"address\":{\"line1\":\"1 Mill Lane\",\"country\":\"de\"}}|address.country|alpha-2",
      "SELLER,\"address\":{\"street\":\"1 Mill Lane\"}}|address.street|not an address field",
      "SELLER,\"status\":\"banned\"}|status|must be one of active, pending, suspended, closed",
      "SELLER,\"bankAccount\":\"12\"}|bankAccount|at least 4",
      "SELLER,\"legalName\":7}|legalName|must be a string",
      "SELLER,\"metadata\":[1]}|metadata|must be an object",
      "SELLER,\"label\":5}|label|string or an object",
      "{\"kind\":\"transaction\",\"id\":\"T-1\",\"at\":\"2025-03-01T10:00:00Z\",\"sellerId\":\"S-1\",\"currency\":\"EUR\"}|amount|is required",
      "TX,\"amount\":-5}|amount|greater than 0",
      "TX,\"amount\":\"12\"}|amount|must be a number",
      "TX,\"currency\":\"euro\"}|currency|ISO 4217",
      "TX,\"cardBin\":\"4242\",\"cardLast4\":\"4242\"}|cardBin|6 to 8 digits",
      "TX,\"cardBin\":\"424242\"}|cardLast4|is required when cardBin",
      "TX,\"ip\":\"example.com\"}|ip|IPv4 or IPv6",
      "TX,\"status\":\"ok\"}|status|approved, declined, pending, reversed",
      "{\"kind\":\"transaction\",\"id\":\"T-1\",\"at\":\"2025-03-01T10:00:00Z\",\"amount\":10,\"currency\":\"EUR\"}|sellerId|is required",
      "{\"kind\":\"payout\",\"id\":\"P-1\",\"at\":\"2025-03-01T10:00:00Z\",\"sellerId\":\"S-1\",\"amount\":10,\"currency\":\"EUR\"}|bankAccount|is required",
      "{\"kind\":\"refund\",\"id\":\"R-1\",\"at\":\"2025-03-01T10:00:00Z\",\"amount\":10}|transactionId|is required",
      "{\"kind\":\"risk_event\",\"id\":\"E-1\",\"at\":\"2025-03-01T10:00:00Z\",\"subjectId\":\"S-1\",\"type\":\"x\",\"severity\":\"severe\"}|severity|low, medium, high, critical",
      "{\"kind\":\"risk_event\",\"id\":\"E-1\",\"at\":\"2025-03-01T10:00:00Z\",\"subjectId\":\"S-1\",\"type\":\"Bad Type\",\"severity\":\"low\"}|type|must match",
      "{\"kind\":\"case\",\"id\":\"C-1\",\"subjectIds\":[],\"outcome\":\"fraud\",\"summary\":\"s\",\"openedAt\":\"2025-03-01T10:00:00Z\"}|subjectIds|must not be empty",
      "{\"kind\":\"case\",\"id\":\"C-1\",\"subjectIds\":[\"S 1\"],\"outcome\":\"fraud\",\"summary\":\"s\",\"openedAt\":\"2025-03-01T10:00:00Z\"}|subjectIds[0]|must match",
      "{\"kind\":\"case\",\"id\":\"C-1\",\"subjectIds\":[\"S-1\"],\"outcome\":\"maybe\",\"summary\":\"s\",\"openedAt\":\"2025-03-01T10:00:00Z\"}|outcome|fraud, legit, pending",
      "{\"kind\":\"case\",\"id\":\"C-1\",\"subjectIds\":[\"S-1\"],\"outcome\":\"fraud\",\"summary\":\"s\",\"openedAt\":\"2025-03-02T00:00:00Z\",\"closedAt\":\"2025-03-01T00:00:00Z\"}|closedAt|not be before openedAt",
      "{\"kind\":\"watchlist_entry\",\"id\":\"W-1\",\"type\":\"person\",\"value\":\"x\"}|type|must be one of name, email",
      "{\"kind\":\"watchlist_entry\",\"id\":\"W-1\",\"type\":\"ip_range\",\"value\":\"203.0.113.7\"}|value|CIDR range",
      "{\"kind\":\"watchlist_entry\",\"id\":\"W-1\",\"type\":\"name\",\"value\":\"!!!\"}|value|letters or digits",
  })
  void refusesTheBadField(String line, String field, String reason) {
    String text = line.replace("SELLER", SELLER).replace("TX", TX);
    RecordValidator.Line result = VALIDATOR.line(7, text);
    assertNull(result.record(), "refused: " + text);
    assertNotNull(result.error());
    assertEquals(7, result.error().line());
    assertEquals(field, result.error().field());
    assertTrue(result.error().reason().contains(reason), result.error().reason());
  }

  @Test
  void linesThatAreNotOneObject() {
    assertEquals("not valid JSON", VALIDATOR.line(3, "{\"kind\":").error().reason());
    assertEquals("a line must be one JSON object", VALIDATOR.line(4, "[1,2]").error().reason());
    assertNull(VALIDATOR.line(5, "   ").error(), "blank lines are skipped, not refused");
    assertNull(VALIDATOR.line(5, "   ").record());
    RecordValidator small = new RecordValidator(FP, 300);
    assertTrue(small.line(6, SELLER + ",\"businessName\":\"" + "x".repeat(300) + "\"}").error().reason()
        .contains("longer than 300"));
    LineError nul = VALIDATOR.line(8, SELLER + ",\"businessName\":\"a\\u0000b\"}").error();
    assertEquals("businessName", nul.field());
    assertEquals("S-1", VALIDATOR.line(9, SELLER + ",\"status\":\"x\"}").error().id(), "the id is reported when readable");
  }

  @Test
  void storedFormOfASeller() {
    DomainRecord r = RecordFixtures.record(SELLER + ",\"email\":\"  K.Marlo@Example.com \",\"taxId\":\"" + TAX_ID
        + "\",\"bankAccount\":\"" + ACCOUNT + "\",\"ips\":[\" 203.0.113.7 \"],\"referrer\":\"partner-7\","
        + "\"metadata\":{\"tier\":\"gold\"},\"label\":{\"fraud\":true,\"pattern\":\"mule_network\"}}");
    JsonObject b = r.body();
    assertEquals(RecordKind.SELLER, r.kind());
    assertEquals("K.Marlo@Example.com", b.getString("email"), "trimmed, as given otherwise");
    assertEquals("203.0.113.7", b.getJsonArray("ips").getString(0));
    assertFalse(b.containsKey("taxId"));
    assertFalse(b.containsKey("bankAccount"));
    assertEquals(FP.taxId(TAX_ID), b.getString("taxIdFp"));
    assertEquals(FP.bankAccount(ACCOUNT), b.getString("bankAccountFp"));
    assertEquals("3000", b.getString("bankAccountLast4"));
    assertFalse(b.encode().contains("0532013000"), "no digits of the raw account beyond the last 4");
    assertFalse(b.encode().contains("99887766"), "no digits of the raw tax id");
    assertFalse(b.containsKey("label"), "labels never enter the stored form");
    assertEquals(new JsonObject().put("tier", "gold").put("referrer", "partner-7"), b.getJsonObject("metadata"));
    assertEquals("mule_network", r.label().getString("pattern"));
    assertEquals("S-1", r.sellerId());
    assertEquals(1735689600000L, r.at());
  }

  @Test
  void storedFormOfTransactionsPayoutsAndWatchlist() {
    DomainRecord tx = RecordFixtures.record(TX + ",\"cardBin\":\"424242\",\"cardLast4\":\"4242\",\"promoCode\":\"WELCOME10\"}");
    assertEquals(FP.card("424242", "4242"), tx.body().getString("cardFp"));
    assertEquals("424242", tx.body().getString("cardBin"), "BIN and last 4 are kept");
    assertEquals("WELCOME10", tx.body().getJsonObject("metadata").getString("promoCode"));
    DomainRecord payout = RecordFixtures.record("{\"kind\":\"payout\",\"id\":\"P-1\",\"at\":\"2025-03-07T00:00:00Z\","
        + "\"sellerId\":\"S-1\",\"bankAccount\":\"" + ACCOUNT + "\",\"amount\":200,\"currency\":\"EUR\"}");
    assertEquals(FP.bankAccount(ACCOUNT), payout.body().getString("bankAccountFp"));
    assertFalse(payout.body().containsKey("bankAccount"));
    DomainRecord account = RecordFixtures.record("{\"kind\":\"watchlist_entry\",\"id\":\"W-4\",\"type\":\"bank_account\","
        + "\"value\":\"" + ACCOUNT + "\"}");
    assertFalse(account.body().containsKey("value"));
    assertEquals(FP.bankAccount(ACCOUNT), account.body().getString("valueFp"));
    assertEquals("bank_account:" + FP.bankAccount(ACCOUNT), account.matchKey());
    DomainRecord email = RecordFixtures.record("{\"kind\":\"watchlist_entry\",\"id\":\"W-2\",\"type\":\"email\","
        + "\"value\":\"A@Shop.example\"}");
    assertEquals("email:a@shop.example", email.matchKey());
    DomainRecord name = RecordFixtures.record("{\"kind\":\"watchlist_entry\",\"id\":\"W-1\",\"type\":\"name\","
        + "\"value\":\"  José  O'Brien \"}");
    assertEquals("jose o brien", name.watchName());
    DomainRecord range = RecordFixtures.record("{\"kind\":\"watchlist_entry\",\"id\":\"W-3\",\"type\":\"ip_range\","
        + "\"value\":\"203.0.113.9/24\"}");
    assertEquals("ip_range:203.0.113.0/24", range.matchKey());
    assertEquals(0, range.at() == null ? 0 : range.at(), "watchlist entries have no time");
  }

  @Test
  void equalRecordsHashEqual() {
    String line = TX + ",\"status\":\"approved\"}";
    assertEquals(RecordFixtures.record(line).hash(), RecordFixtures.record(line).hash());
    assertFalse(RecordFixtures.record(line).hash().equals(RecordFixtures.record(TX + ",\"status\":\"declined\"}").hash()));
  }
}
