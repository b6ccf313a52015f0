package dev.argus.citations;

/**
 * One inference rule: two accounts that share an identifier of type {@code via} (both have an edge to the same
 * {@code via} node) stand in relation {@code implies}, e.g. {@code same_device}: via {@code device} ⇒
 * {@code LINKED_ACCOUNTS}.
 */
public record InferenceRule(String name, String via, String implies, String description) {
}
