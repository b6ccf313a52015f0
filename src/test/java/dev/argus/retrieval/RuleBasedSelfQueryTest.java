package dev.argus.retrieval;

import dev.argus.knowledge.MetadataCondition;
import dev.argus.knowledge.MetadataCondition.Op;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RuleBasedSelfQueryTest {

  private static final Set<String> KNOWN = Set.of("default", "cases", "Policies");
  private final RuleBasedSelfQuery rules = new RuleBasedSelfQuery(List.of("category", "region", "risk"), "date");

  private SelfQueryResult apply(String query) {
    return rules.apply(query, KNOWN);
  }

  private static MetadataCondition date(Op op, String value) {
    return new MetadataCondition("date", op, List.of(value));
  }

  private static List<MetadataCondition> conditions(SelfQueryResult r) {
    return r.filters().stream().filter(f -> f.condition() != null).map(InferredFilter::condition).toList();
  }

  private static List<String> namespaces(SelfQueryResult r) {
    return r.filters().stream().filter(f -> f.namespace() != null).map(InferredFilter::namespace).toList();
  }

  @Test
  void ordinaryQuestionsPassThrough() {
    for (String q : List.of("How do mule accounts move money?", "seller:abc123 refund abuse",
        "emails like john.doe@example.com", "2000 transactions in one hour", "namespace design in vert.x")) {
      SelfQueryResult r = apply(q);
      assertEquals(q, r.cleanedQuery());
      assertTrue(r.filters().isEmpty(), q + " -> " + r.filters());
    }
  }

  @Test
  void namespacePhrasesForKnownNamespaces() {
    for (String q : List.of("namespace:cases account takeover", "account takeover in namespace cases",
        "account takeover in the cases namespace", "NAMESPACE = \"cases\" account takeover")) {
      SelfQueryResult r = apply(q);
      assertEquals(List.of("cases"), namespaces(r), q);
      assertEquals("account takeover", r.cleanedQuery(), q);
    }
    SelfQueryResult r = apply("refund rules namespace:policies");
    assertEquals(List.of("Policies"), namespaces(r), "matched case-insensitively, reported as stored");
    assertEquals("namespace:policies", r.filters().get(0).phrase());
  }

  @Test
  void unknownNamespaceStaysInTheQuery() {
    SelfQueryResult r = apply("namespace:secret account takeover");
    assertEquals("namespace:secret account takeover", r.cleanedQuery());
    assertTrue(r.filters().isEmpty());
  }

  @Test
  void keyValueForConfiguredKeys() {
    SelfQueryResult r = apply("Category: policy refund abuse region:\"North America\"");
    assertEquals(List.of(new MetadataCondition("category", Op.EQ, List.of("policy")),
        new MetadataCondition("region", Op.EQ, List.of("North America"))), conditions(r));
    assertEquals("refund abuse", r.cleanedQuery());
  }

  @Test
  void yearsAndRanges() {
    assertEquals(List.of(date(Op.GTE, "2023-01-01"), date(Op.LT, "2024-01-01")), conditions(apply("mule accounts in 2023")));
    assertEquals("mule accounts", apply("mule accounts in 2023").cleanedQuery());
    assertEquals(List.of(date(Op.GTE, "2021-01-01")), conditions(apply("chargebacks since 2021")));
    assertEquals(List.of(date(Op.GTE, "2021-01-01")), conditions(apply("chargebacks after 2020")));
    assertEquals(List.of(date(Op.LT, "2020-01-01")), conditions(apply("chargebacks before 2020")));
    assertEquals(List.of(date(Op.LT, "2020-07-01")), conditions(apply("chargebacks until 2020-06")));
    assertEquals(List.of(date(Op.GTE, "2022-03-16")), conditions(apply("after 2022-03-15 chargebacks")));
    assertEquals(List.of(date(Op.GTE, "2023-02-01"), date(Op.LT, "2023-03-01")),
        conditions(apply("cases during 2023-02")));
    assertEquals(List.of(date(Op.GTE, "2023-05-01"), date(Op.LT, "2023-05-02")), conditions(apply("date:2023-05-01 cases")));
    assertEquals(List.of(date(Op.GTE, "2019-01-01"), date(Op.LT, "2022-01-01")),
        conditions(apply("fraud rings between 2021 and 2019")), "reversed bounds are swapped, both years included");
    assertEquals(List.of(date(Op.GTE, "2019-01-01"), date(Op.LT, "2022-01-01")), conditions(apply("rings from 2019 to 2021")));
    assertEquals(List.of(date(Op.GTE, "2019-01-01"), date(Op.LT, "2022-01-01")), conditions(apply("rings from 2019-2021")));
    assertEquals("rings", apply("rings from 2019-2021").cleanedQuery());
  }

  @Test
  void implausibleDatesAreNotFilters() {
    assertTrue(apply("monks in 1850").filters().isEmpty());
    assertTrue(apply("cases in 2023-02-30").filters().isEmpty());
    assertTrue(apply("in 2023abc").filters().isEmpty());
  }

  @Test
  void severalPhrasesTogether() {
    SelfQueryResult r = apply("namespace:cases category:policy account takeover since 2022, before 2024");
    assertEquals(List.of("cases"), namespaces(r));
    assertEquals(List.of(new MetadataCondition("category", Op.EQ, List.of("policy")),
        date(Op.GTE, "2022-01-01"), date(Op.LT, "2024-01-01")), conditions(r));
    assertEquals("account takeover", r.cleanedQuery());
  }

  @Test
  void neverDropsTheWholeQuery() {
    SelfQueryResult r = apply("namespace:cases in 2023");
    assertEquals(List.of("cases"), namespaces(r));
    assertEquals(2, conditions(r).size());
    assertEquals("namespace:cases in 2023", r.cleanedQuery());
  }

  @Test
  void explicitFiltersWinOverInferredOnes() {
    SearchRequest request = new SearchRequest("q", 10, "default",
        List.of(new MetadataCondition("category", Op.EQ, List.of("guideline"))),
        List.of(Retriever.values()), FusionMode.RRF, Expansion.NONE, false, true);
    SelfQueryResult inferred = apply("namespace:cases category:policy takeover in 2023");
    AppliedFilters applied = HybridRetriever.merge(request, inferred);
    assertEquals("default", applied.namespace());
    assertEquals(List.of(new MetadataCondition("category", Op.EQ, List.of("guideline")),
        date(Op.GTE, "2023-01-01"), date(Op.LT, "2024-01-01")), applied.conditions());
    assertEquals(4, applied.fromQuery().size());
    assertFalse(applied.fromQuery().get(0).applied(), "namespace:cases lost to the explicit namespace");
    assertFalse(applied.fromQuery().get(1).applied(), "category:policy lost to the explicit category");
    assertTrue(applied.fromQuery().get(2).applied());
    assertEquals("in 2023", applied.fromQuery().get(2).phrase());
    assertEquals(applied, AppliedFilters.fromJson(applied.toJson()));
  }

  @Test
  void inferredNamespaceAppliesWhenTheRequestHasNone() {
    SearchRequest request = new SearchRequest("q", 10, null, List.of(), List.of(Retriever.values()), FusionMode.RRF,
        Expansion.NONE, false, true);
    AppliedFilters applied = HybridRetriever.merge(request, apply("namespace:cases takeover"));
    assertEquals("cases", applied.namespace());
    assertTrue(applied.fromQuery().get(0).applied());
  }
}
