package dev.argus.agent;

import dev.argus.agent.PhaseTransitions.Transition;
import dev.argus.agent.phases.Phase;
import dev.argus.bus.Addresses;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The state machine's rules, without a bus: next phase, arguments, loop and re-plan bounds. */
class PhaseTransitionsTest {

  private static Transition after(Phase done, JsonObject output, int loops, int replans) {
    return PhaseTransitions.after(done, output, loops, replans, 2);
  }

  @Test
  void theHappyPathGoesThroughEveryPhaseOnceAndEnds() {
    assertEquals(Phase.THINK, PhaseTransitions.FIRST);
    assertEquals(Phase.PLAN, after(Phase.THINK, new JsonObject().put("intent", "question"), 0, 0).next());
    assertEquals(Phase.ACT, after(Phase.PLAN, new JsonObject(), 0, 0).next());
    assertEquals(Phase.OBSERVE, after(Phase.ACT, new JsonObject().put("planned", 1).put("plannedFailed", 0), 0, 0)
        .next());
    assertEquals(Phase.REFLECT, after(Phase.OBSERVE, new JsonObject(), 0, 0).next());
    Transition end = after(Phase.REFLECT, new JsonObject().put("decision", "ship"), 0, 0);
    assertTrue(end.finished());
    assertNull(end.note());
  }

  @Test
  void smallTalkSkipsPlanAndAct() {
    assertEquals(Phase.OBSERVE, after(Phase.THINK, new JsonObject().put("intent", "smalltalk"), 0, 0).next());
  }

  @Test
  void actReplansOnceWhenMoreThanHalfOfThePlannedCallsFailed() {
    // 2 of 3 failed: 2 * 2 > 3, so re-plan
    Transition t = after(Phase.ACT, new JsonObject().put("planned", 3).put("plannedFailed", 2), 0, 0);
    assertEquals(Phase.PLAN, t.next());
    assertTrue(t.args().getBoolean("replan"));
    assertEquals(1, t.replans());
    assertEquals("2 of 3 tool calls failed; re-planning once", t.note());
    // exactly half failed (1 of 2): 1 * 2 > 2 is false, go on
    assertEquals(Phase.OBSERVE, after(Phase.ACT, new JsonObject().put("planned", 2).put("plannedFailed", 1), 0, 0)
        .next());
    // the second time everything fails: no more re-plans
    Transition again = after(Phase.ACT, new JsonObject().put("planned", 1).put("plannedFailed", 1), 0, 1);
    assertEquals(Phase.OBSERVE, again.next());
    assertEquals(1, again.replans());
    // nothing planned (e.g. small talk): nothing failed
    assertEquals(Phase.OBSERVE, after(Phase.ACT, new JsonObject(), 0, 0).next());
  }

  @Test
  void reflectLoopsBackToPlanAtMostMaxRefinementsTimes() {
    JsonObject loop = new JsonObject().put("decision", "loop").put("reformulatedQuery", "refund time");
    Transition first = after(Phase.REFLECT, loop, 0, 0);
    assertEquals(Phase.PLAN, first.next());
    assertEquals(1, first.loops());
    assertEquals(new JsonObject().put("query", "refund time").put("attempt", 1), first.args().getJsonObject("refinement"));
    assertTrue(first.note().contains("refinement 1 of 2"), first.note());
    Transition second = after(Phase.REFLECT, loop, 1, 0);
    assertEquals(2, second.args().getJsonObject("refinement").getInteger("attempt"));
    Transition third = after(Phase.REFLECT, loop, 2, 0);
    assertTrue(third.finished());
    assertEquals(2, third.loops());
    // with no refinements allowed, a loop decision ends the run
    assertTrue(PhaseTransitions.after(Phase.REFLECT, loop, 0, 0, 0).finished());
    assertFalse(after(Phase.REFLECT, new JsonObject().put("decision", "revise"), 0, 0).args().containsKey("refinement"));
  }

  @Test
  void everyPhaseCarriesItsAddressAndWireName() {
    assertEquals(Addresses.AGENT_THINK, Phase.THINK.address());
    assertEquals(Addresses.AGENT_REFLECT, Phase.REFLECT.address());
    assertEquals(Phase.ACT, Phase.fromWire("act"));
    assertNull(Phase.fromWire("dance"));
    assertNull(Phase.fromWire(null));
  }
}
