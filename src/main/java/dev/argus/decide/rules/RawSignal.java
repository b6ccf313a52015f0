package dev.argus.decide.rules;

/** A measured value before scoring: {@code value == null} when unknown, with the reason in {@code note}. */
public record RawSignal(String name, Double value, String cite, String tool, String note) {
}
