package dev.argus.agent.phases;

import dev.argus.agent.Profiles;
import dev.argus.bus.BusFailures;
import dev.argus.runs.Run;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;

/**
 * Serves one {@link Phase} on its own address ({@code argus.agent.<phase>}). Request: {@code {run, profile, args}};
 * reply: the {@link PhaseResult} with the phase's own duration (so the coordinator can tell its overhead apart).
 */
public final class PhaseVerticle extends VerticleBase {

  private final String address;
  private final Phase phase;
  private final Profiles profiles;

  public PhaseVerticle(String address, Phase phase, Profiles profiles) {
    this.address = address;
    this.phase = phase;
    this.profiles = profiles;
  }

  @Override
  public Future<?> start() {
    MessageConsumer<JsonObject> consumer = vertx.eventBus().consumer(address, msg -> {
      long start = System.nanoTime();
      Future<PhaseResult> result;
      try {
        JsonObject body = msg.body();
        Run run = Run.fromJson(body.getJsonObject("run"));
        PhaseInput in = new PhaseInput(run, profiles.get(body.getString("profile")),
            body.getJsonObject("args", new JsonObject()), new PhaseEvents(vertx, run.runId()));
        result = phase.run(in);
      } catch (RuntimeException e) {
        result = Future.failedFuture(e);
      }
      result.onSuccess(r -> {
        long ns = System.nanoTime() - start;
        // durationNs lets the coordinator tell its own overhead from the phase's work below a millisecond
        msg.reply(r.withDuration(ns / 1_000_000).toJson().put("durationNs", ns));
      })
          .onFailure(err -> BusFailures.fail(msg, err));
    });
    return consumer.completion();
  }
}
