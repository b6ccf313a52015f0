package dev.argus.agent;

import dev.argus.agent.phases.Phase;
import io.vertx.core.json.JsonObject;

/**
 * The state machine's rules as a pure function: given the phase that just ended, its output and the run's loop
 * counters, which phase comes next and with which arguments.
 * <ul>
 *   <li>think &rarr; plan, or straight to observe for small talk;</li>
 *   <li>plan &rarr; act;</li>
 *   <li>act &rarr; observe, or back to plan once ({@code replan}) when more than half of the planned calls failed;</li>
 *   <li>observe &rarr; reflect;</li>
 *   <li>reflect &rarr; the end, or back to plan ({@code refinement: {query, attempt}}) when it asks for a loop and
 *   fewer than {@code maxRefinements} loops were made.</li>
 * </ul>
 */
public final class PhaseTransitions {

  /** The phase every run starts with. */
  public static final Phase FIRST = Phase.THINK;
  /** Re-plans allowed after failed tool calls. */
  public static final int MAX_REPLANS = 1;

  private PhaseTransitions() {
  }

  /**
   * What follows a phase: {@code next} ({@code null}: the run is finished), the arguments for it, the updated loop
   * and re-plan counters, and a note for the run's log when a loop or re-plan was decided ({@code null} otherwise).
   */
  public record Transition(Phase next, JsonObject args, int loops, int replans, String note) {

    public boolean finished() {
      return next == null;
    }
  }

  public static Transition after(Phase done, JsonObject output, int loops, int replans, int maxRefinements) {
    return switch (done) {
      case THINK -> to("smalltalk".equals(output.getString("intent")) ? Phase.OBSERVE : Phase.PLAN, loops, replans);
      case PLAN -> to(Phase.ACT, loops, replans);
      case ACT -> {
        int planned = output.getInteger("planned", 0);
        int failed = output.getInteger("plannedFailed", 0);
        if (planned > 0 && failed * 2 > planned && replans < MAX_REPLANS) {
          yield new Transition(Phase.PLAN, new JsonObject().put("replan", true), loops, replans + 1,
              failed + " of " + planned + " tool calls failed; re-planning once");
        }
        yield to(Phase.OBSERVE, loops, replans);
      }
      case OBSERVE -> to(Phase.REFLECT, loops, replans);
      case REFLECT -> {
        if ("loop".equals(output.getString("decision")) && loops < maxRefinements) {
          int attempt = loops + 1;
          String query = output.getString("reformulatedQuery");
          yield new Transition(Phase.PLAN, new JsonObject().put("refinement", new JsonObject().put("query", query)
              .put("attempt", attempt)), attempt, replans, "answer not supported by the evidence; refinement "
              + attempt + " of " + maxRefinements + " with query '" + query + "'");
        }
        yield new Transition(null, new JsonObject(), loops, replans, null);
      }
    };
  }

  private static Transition to(Phase next, int loops, int replans) {
    return new Transition(next, new JsonObject(), loops, replans, null);
  }
}
