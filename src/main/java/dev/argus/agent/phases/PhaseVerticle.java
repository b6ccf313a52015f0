package dev.argus.agent.phases;

import dev.argus.agent.profile.Profiles;
import dev.argus.bus.BusFailures;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;

/**
 * Serves one {@link PhaseStep} on its phase's address ({@link Phase#address()}). Request: {@link PhaseRequest};
 * reply: the {@link PhaseResult} with the phase's own duration (so the coordinator can tell its overhead apart).
 */
public final class PhaseVerticle extends VerticleBase {

  private final PhaseStep step;
  private final Profiles profiles;

  public PhaseVerticle(PhaseStep step, Profiles profiles) {
    this.step = step;
    this.profiles = profiles;
  }

  @Override
  public Future<?> start() {
    // local: a run's phases execute on the node whose coordinator drives it (cluster mode spreads whole runs over
    // the nodes; a phase never waits on another node, and a dead node takes only its own runs down with it)
    MessageConsumer<JsonObject> consumer = vertx.eventBus().localConsumer(step.phase().address(), msg -> {
      long start = System.nanoTime();
      Future<PhaseResult> result;
      try {
        PhaseRequest req = PhaseRequest.fromJson(msg.body());
        PhaseInput in = new PhaseInput(req.run(), profiles.get(req.profile()), req.args(),
            new PhaseEvents(vertx, req.run().runId()));
        result = step.run(in);
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
