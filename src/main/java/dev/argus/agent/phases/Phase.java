package dev.argus.agent.phases;

import io.vertx.core.Future;

/** One step of the TPAOR loop, LLM-first with a rule-based fallback. Plain Java; {@link PhaseVerticle} serves it. */
public interface Phase {

  /** {@code think}, {@code plan}, {@code act}, {@code observe} or {@code reflect}. */
  String name();

  Future<PhaseResult> run(PhaseInput input);
}
