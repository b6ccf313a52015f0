package dev.argus.retrieval;

import dev.argus.config.ArgusConfig;
import dev.argus.config.RetrievalConf;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TrigramPolicyTest {

  private static RetrievalConf conf(String trigram) {
    return ArgusConfig.load(Path.of("conf", "argus.json"), Map.of("ARGUS_RETRIEVAL_TRIGRAM", trigram)).retrieval();
  }

  @Test
  void identifiersAndShortQueriesNeedTheTrigramLeg() {
    assertTrue(TrigramPolicy.needsTrigram("which cases mention SLR-10472 and their outcome"));
    assertTrue(TrigramPolicy.needsTrigram("who used k.marlow@example.com to open accounts in the spring"));
    assertTrue(TrigramPolicy.needsTrigram("payouts to XX00 TEST 0000 1111 2222 33 that were flagged later on"));
    assertTrue(TrigramPolicy.needsTrigram("traffic from 203.0.113.45 during the promotion weekend last year"));
    assertTrue(TrigramPolicy.needsTrigram("acount takeovr"));
    assertTrue(TrigramPolicy.needsTrigram("refund abuse signals"));
  }

  @Test
  void plainNumbersAndHyphenatedWordsAreNotIdentifiers() {
    assertFalse(TrigramPolicy.needsTrigram("sellers with more than 30 chargebacks in 2023 need a well-known review"));
    assertFalse(TrigramPolicy.needsTrigram("a 0.5 percent dispute rate triggers an enhanced due-diligence check"));
    assertTrue(TrigramPolicy.needsTrigram("the IL-10 response in mice lacking the receptor after infection"));
    assertTrue(TrigramPolicy.needsTrigram("calls from +1-555-0142 about payouts that were held for review"));
  }

  @Test
  void besideOtherLegsTheTrigramLegSeesTheIdentifiersOfLongQueries() {
    assertEquals("SLR-10472", TrigramPolicy.trigramText("which cases mention SLR-10472 and what was their outcome"));
    assertEquals("k.marlow@example.com 203.0.113.45",
        TrigramPolicy.trigramText("who used k.marlow@example.com from 203.0.113.45 to open new accounts"));
    assertEquals("acount takeovr", TrigramPolicy.trigramText("acount takeovr"));
    String plain = "what evidence do we need before we suspend a seller for refund abuse";
    assertEquals(plain, TrigramPolicy.trigramText(plain));
  }

  @Test
  void longNaturalLanguageQuestionsDoNot() {
    assertFalse(TrigramPolicy.needsTrigram("what evidence do we need before we suspend a seller for refund abuse"));
    assertFalse(TrigramPolicy.needsTrigram("Vitamin D deficiency is associated with an increased risk of fractures"));
  }

  @Test
  void defaultRetrieversFollowTheConfiguredMode() {
    String question = "what evidence do we need before we suspend a seller for refund abuse";
    assertEquals(List.of(Retriever.VECTOR, Retriever.KEYWORD), TrigramPolicy.defaultRetrievers(question, conf("auto")));
    assertEquals(List.of(Retriever.values()), TrigramPolicy.defaultRetrievers(question, conf("always")));
    assertEquals(List.of(Retriever.values()), TrigramPolicy.defaultRetrievers("SLR-10472", conf("auto")));
  }

  @Test
  void namedRetrieversAreKeptAsGiven() {
    RetrievalConf auto = conf("auto");
    SearchRequest request = SearchRequest.fromJson(new JsonObject()
        .put("query", "what evidence do we need before we suspend a seller for refund abuse")
        .put("retrievers", new io.vertx.core.json.JsonArray(List.of("vector", "keyword", "trigram"))), auto, 2000);
    assertEquals(List.of(Retriever.values()), request.retrievers());
    SearchRequest unnamed = SearchRequest.fromJson(new JsonObject()
        .put("query", "what evidence do we need before we suspend a seller for refund abuse"), auto, 2000);
    assertEquals(List.of(Retriever.VECTOR, Retriever.KEYWORD), unnamed.retrievers());
  }
}
