package dev.argus.citations;

import dev.argus.bus.Addresses;
import dev.argus.bus.BusFailures;
import dev.argus.config.BundledFiles;
import dev.argus.config.CitationsConf;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;

import java.util.logging.Logger;

/**
 * Citation validation on the bus: {@code argus.graph.citations.validate} (shapes in {@link CitationRequest} and
 * {@link CitationResult}). A thin adapter over {@link CitationValidator}; it reaches the graph only over the bus
 * ({@link BusGraphLookup}), caches the graph's answers per graph version and drops them on
 * {@code argus.graph.changed}. The rule set ({@code citations.rulesFile}) is read and validated at start: a wrong
 * file stops start-up.
 */
public final class CitationsVerticle extends VerticleBase {

  private static final Logger LOG = Logger.getLogger(CitationsVerticle.class.getName());

  private final CitationsConf conf;
  private CitationValidator validator;
  private CachedGraphLookup cache;

  public CitationsVerticle(CitationsConf conf) {
    this.conf = conf;
  }

  @Override
  public Future<?> start() {
    return vertx.executeBlocking(() -> CitationRules.load(BundledFiles.resolve(conf.rulesFile())), false)
        .compose(rules -> {
          cache = new CachedGraphLookup(new BusGraphLookup(vertx, conf.graphTimeoutMs()), conf.cacheMaxEntries());
          validator = new CitationValidator(vertx, cache, rules, conf.timeoutMs());
          LOG.info("citation rules " + rules.version() + ": " + rules.rulesByVia().size() + " inference rules");
          var eb = vertx.eventBus();
          return Future.all(
              eb.<JsonObject>consumer(Addresses.CITATIONS_VALIDATE, this::validate).completion(),
              eb.<Object>consumer(Addresses.GRAPH_CHANGED, msg -> cache.invalidate()).completion());
        });
  }

  private void validate(Message<JsonObject> msg) {
    CitationRequest request;
    try {
      request = CitationRequest.fromJson(msg.body(), conf.maxCitations(), conf.maxEvidence());
    } catch (RuntimeException e) {
      BusFailures.fail(msg, e);
      return;
    }
    validator.validate(request)
        .onSuccess(results -> msg.reply(CitationResult.reply(results, validator.rules().version())))
        .onFailure(err -> BusFailures.fail(msg, err));
  }
}
