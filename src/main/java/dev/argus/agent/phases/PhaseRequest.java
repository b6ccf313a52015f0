package dev.argus.agent.phases;

import dev.argus.runs.Run;
import io.vertx.core.json.JsonObject;

/**
 * What the coordinator sends to a phase's address ({@link Phase#address()}): the run so far, the name of its profile
 * and the arguments the previous transition chose ({@code replan}, {@code refinement}, ...).
 */
public record PhaseRequest(Run run, String profile, JsonObject args) {

  public PhaseRequest {
    args = args == null ? new JsonObject() : args;
  }

  public JsonObject toJson() {
    return new JsonObject().put("run", run.toJson()).put("profile", profile).put("args", args);
  }

  public static PhaseRequest fromJson(JsonObject json) {
    JsonObject run = json.getJsonObject("run");
    if (run == null) {
      // a malformed request (e.g. a health probe) is the sender's fault: 400, not an unexpected failure
      throw dev.argus.common.ApiException.badRequest("invalid_phase_request", "a phase request needs 'run'");
    }
    return new PhaseRequest(Run.fromJson(run), json.getString("profile"), json.getJsonObject("args"));
  }
}
