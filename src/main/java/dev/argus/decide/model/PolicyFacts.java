package dev.argus.decide.model;

import java.util.Map;

/** What policy rules look at: the subject's country, the transaction amount (null for onboarding) and raw signals. */
public record PolicyFacts(String country, Double amount, Map<String, Double> signals) {
}
