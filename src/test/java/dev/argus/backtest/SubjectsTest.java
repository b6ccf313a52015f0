package dev.argus.backtest;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.StringReader;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Reading a labelled world (labels out of the text that goes to the store) and choosing subjects and their asOf. */
class SubjectsTest {

  static WorldIndex read(String world, StringBuilder stored) {
    try (WorldReader r = new WorldReader(new BufferedReader(new StringReader(world)))) {
      WorldReader.Chunk c;
      while ((c = r.next(3, 1 << 20)).lines() > 0) { // chunks of 3 lines: 13 lines → 5 chunks
        stored.append(c.text());
      }
      return r.index();
    }
  }

  static BacktestRequest req(String body) {
    return BacktestRequest.fromJson(new JsonObject(body).put("text", "x"), 1000);
  }

  @Test
  void labelsStayOutOfTheStoredText() {
    StringBuilder stored = new StringBuilder();
    WorldIndex index = read(BacktestFixtures.world(), stored);
    assertEquals(13, index.lines());
    assertEquals(13, stored.toString().split("\n").length);
    assertFalse(stored.toString().contains("\"label\""), stored.toString());
    assertFalse(stored.toString().contains("mule_network"));
    assertEquals(5, index.sellers().size()); // S-6 has no label
    assertEquals(2, index.buyers().size());
    assertEquals(4, index.transactions());
    assertEquals(Instant.parse("2025-03-05T00:00:00Z"), index.latest()); // E-1
  }

  @Test
  void sellersAsOfTheWorldsEndOrTheirOnboarding() {
    WorldIndex index = read(BacktestFixtures.world(), new StringBuilder());
    List<LabelledSubject> end = Subjects.select(index, req("{}"));
    assertEquals(List.of("S-1", "S-2", "S-3", "S-4", "S-5"), end.stream().map(LabelledSubject::id).toList());
    end.forEach(s -> assertEquals(Instant.parse("2025-03-05T00:00:00Z"), s.asOf()));
    assertEquals(List.of(true, true, false, false, false), end.stream().map(LabelledSubject::fraud).toList());
    assertEquals("family_address", end.get(3).pattern());
    List<LabelledSubject> onboarding = Subjects.select(index, req("{\"decisionTime\":\"onboarding\"}"));
    assertEquals(Instant.parse("2025-01-01T00:00:00Z"), onboarding.get(0).asOf());
    assertEquals(Instant.parse("2024-05-01T00:00:00Z"), onboarding.get(2).asOf());
    List<LabelledSubject> fixed = Subjects.select(index, req("{\"asOf\":\"2025-02-01T00:00:00Z\"}"));
    fixed.forEach(s -> assertEquals(Instant.parse("2025-02-01T00:00:00Z"), s.asOf()));
  }

  @Test
  void transactionsTheLastOfEachSellerAndOfEachFraudulentBuyer() {
    WorldIndex index = read(BacktestFixtures.world(), new StringBuilder());
    List<LabelledSubject> txs = Subjects.select(index, req("{\"subjects\":\"transactions\"}"));
    // S-1's last is T-3 (03-03, not T-4 of 02-03), S-3's last is T-2, B-1's (fraudulent) last is T-1
    assertEquals(List.of("T-3", "T-2", "T-1"), txs.stream().map(LabelledSubject::id).toList());
    // T-3: honest buyer B-2, mule seller S-1 → fraud, mule_network
    assertEquals(true, txs.get(0).fraud());
    assertEquals("mule_network", txs.get(0).pattern());
    // T-2: both parties background → honest
    assertEquals(false, txs.get(1).fraud());
    assertEquals("none", txs.get(1).pattern());
    // T-1: refund-abusing buyer at an honest seller → fraud, refund_abuse; decided as of its own time
    assertEquals("refund_abuse", txs.get(2).pattern());
    assertEquals(Instant.parse("2025-03-01T10:00:00Z"), txs.get(2).asOf());
    assertEquals(LabelledSubject.TRANSACTION, txs.get(2).profile());
    assertEquals(8, Subjects.select(index, req("{\"subjects\":\"all\"}")).size());
  }

  @Test
  void aSampleKeepsEveryPlantedSubject() {
    WorldIndex index = read(BacktestFixtures.world(), new StringBuilder());
    // planted: S-1, S-2, S-4; background S-3, S-5. Room for 1 background: stride 2/1 → S-3
    assertEquals(List.of("S-1", "S-2", "S-4", "S-3"),
        Subjects.select(index, req("{\"sample\":4}")).stream().map(LabelledSubject::id).toList());
    assertEquals(List.of("S-1", "S-2", "S-4"),
        Subjects.select(index, req("{\"sample\":1}")).stream().map(LabelledSubject::id).toList());
  }

  @Test
  void requestValidation() {
    assertThrows(RuntimeException.class, () -> BacktestRequest.fromJson(new JsonObject(), 1000)); // no world
    assertThrows(RuntimeException.class, () -> BacktestRequest.fromJson(new JsonObject().put("text", "x")
        .put("generate", new JsonObject().put("sellers", 100)), 1000)); // two worlds
    assertThrows(RuntimeException.class, () -> req("{\"subjects\":\"buyers\"}"));
    assertThrows(RuntimeException.class, () -> req("{\"asOf\":\"yesterday\"}"));
    assertThrows(RuntimeException.class, () -> req("{\"sample\":0}"));
    assertThrows(RuntimeException.class, () -> BacktestRequest.fromJson(new JsonObject()
        .put("generate", new JsonObject().put("sellers", 10)), 1000)); // fewer than 60 sellers
    assertEquals(42L, BacktestRequest.fromJson(new JsonObject()
        .put("generate", new JsonObject().put("sellers", 100)), 1000).generateSeed());
  }
}
