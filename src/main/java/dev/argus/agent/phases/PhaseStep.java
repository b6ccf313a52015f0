package dev.argus.agent.phases;

import io.vertx.core.Future;

/** The work of one phase of the TPAOR loop, LLM-first with a rule-based fallback. Plain Java; {@link PhaseVerticle} serves it. */
public interface PhaseStep {

  /** Which phase this is (its address and wire name). */
  Phase phase();

  Future<PhaseResult> run(PhaseInput input);
}
