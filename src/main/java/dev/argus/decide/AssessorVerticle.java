package dev.argus.decide;

import dev.argus.bus.Addresses;
import dev.argus.bus.BusFailures;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;

/**
 * The three specialist assessors as sub-runs on the bus ({@code argus.decide.assess.identity|network|behaviour}):
 * each answers one domain's vote ({@link Assessor}). Separate addresses, so that one can be replaced by an
 * LLM-backed or remote assessor without the engine knowing.
 */
public final class AssessorVerticle extends VerticleBase {

  @Override
  public Future<?> start() {
    var identity = consumer(Addresses.DECIDE_ASSESS_IDENTITY, "identity");
    var network = consumer(Addresses.DECIDE_ASSESS_NETWORK, "network");
    var behaviour = consumer(Addresses.DECIDE_ASSESS_BEHAVIOUR, "behaviour");
    return Future.all(identity, network, behaviour);
  }

  private Future<Void> consumer(String address, String domain) {
    return vertx.eventBus().<JsonObject>consumer(address, msg -> {
      try {
        msg.reply(Assessor.assess(msg.body().copy().put("domain", domain)));
      } catch (RuntimeException e) {
        BusFailures.fail(msg, e);
      }
    }).completion();
  }
}
