package dev.argus.agent.phases;

import dev.argus.agent.profile.Profile;
import dev.argus.runs.Run;
import io.vertx.core.json.JsonObject;

/** What a phase works on: the run so far (read-only copy), its profile, extra arguments and the event sink. */
public record PhaseInput(Run run, Profile profile, JsonObject args, PhaseEvents events) {

  /** The question to answer: Think's standalone rewrite of a follow-up when there is one, else the question asked. */
  public String question() {
    String standalone = output(Phase.THINK).getString("standalone");
    return standalone != null && !standalone.isBlank() ? standalone : run.input().question();
  }

  /** The latest output of an earlier phase, or an empty object. */
  public JsonObject output(Phase phase) {
    JsonObject p = run.phases().getJsonObject(phase.wire());
    JsonObject o = p == null ? null : p.getJsonObject("output");
    return o == null ? new JsonObject() : o;
  }
}
