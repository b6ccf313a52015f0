package dev.argus.records;

import dev.argus.config.RecordsConf;
import dev.argus.records.world.WorldGenerator;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.io.StringWriter;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * First start: with {@code records.sampleWorldSellers} > 0 and no records stored, a world of that many sellers
 * ({@code records.sampleWorldSeed}) is generated and loaded as a background job, so the tools and the graph have data
 * at once ({@code scripts/run} asks for a few hundred sellers).
 */
final class SampleWorld {

  private static final Logger LOG = Logger.getLogger(SampleWorld.class.getName());

  private SampleWorld() {
  }

  /** Completes once the world is loaded (or at once when there is nothing to load); fails when its job fails. */
  static Future<Void> loadIfEmpty(Vertx vertx, RecordsConf conf, RecordStore store,
                                  Function<LineSource, RecordJob> startJob) {
    if (conf.sampleWorldSellers() <= 0) {
      return Future.succeededFuture();
    }
    return store.count(null).compose(n -> {
      if (n > 0) {
        return Future.<Void>succeededFuture();
      }
      return vertx.executeBlocking(() -> {
        StringWriter out = new StringWriter();
        WorldGenerator.Summary summary = WorldGenerator.generate(conf.sampleWorldSellers(), conf.sampleWorldSeed(), out);
        LOG.info("empty records store: loading a generated world of " + conf.sampleWorldSellers() + " sellers (seed "
            + conf.sampleWorldSeed() + ", " + summary.total() + " records)");
        return out.toString();
      }, false).compose(text -> {
        RecordJob job = startJob.apply(LineSource.of(text));
        LOG.info("sample world: record-loading job " + job.id());
        return job.completion().mapEmpty();
      });
    });
  }
}
