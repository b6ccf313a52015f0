package dev.argus.adversarial;

import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Probes scenarios with at most {@code lanes} in flight, in list order, on the caller's context; never fails: a probe
 * that fails becomes an {@code error} finding with its reason. {@code each} hears every finding as it arrives.
 */
final class Lanes {

  private Lanes() {
  }

  static Future<List<Finding>> probe(List<Scenario> scenarios, int lanes, Function<Scenario, Future<Finding>> probe,
                                     Consumer<Finding> each) {
    if (scenarios.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    Finding[] out = new Finding[scenarios.size()];
    Promise<List<Finding>> done = Promise.promise();
    int[] next = {0};
    int[] running = {0};
    Runnable[] pump = new Runnable[1];
    pump[0] = () -> {
      while (running[0] < lanes && next[0] < scenarios.size()) {
        int i = next[0]++;
        running[0]++;
        Scenario s = scenarios.get(i);
        Future<Finding> f;
        try {
          f = probe.apply(s);
        } catch (RuntimeException e) {
          f = Future.failedFuture(e);
        }
        f.otherwise(err -> Finding.error(s, String.valueOf(err.getMessage()))).onComplete(ar -> {
          out[i] = ar.result();
          running[0]--;
          each.accept(out[i]);
          pump[0].run();
        });
      }
      if (running[0] == 0 && next[0] == scenarios.size()) {
        done.tryComplete(new ArrayList<>(Arrays.asList(out)));
      }
    };
    pump[0].run();
    return done.future();
  }
}
