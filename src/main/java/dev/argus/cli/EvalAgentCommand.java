package dev.argus.cli;

import dev.argus.eval.golden.Comparison;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code argus eval-agent --set NAME [--baseline RESULT|previous]}: runs a golden set on a running Argus
 * ({@code POST /api/eval/sets/NAME/runs}), waits for its result, prints every metric beside the baseline's and exits
 * 1 when one fell more than {@code --threshold} below it (a CI gate), 2 when the run could not be done, else 0.
 * {@code --set-file} first stores (replaces) the set from a JSON file. Results stay on the server for later runs.
 */
@Command(name = "eval-agent", mixinStandardHelpOptions = true,
    description = "Run a golden set against a running Argus, compare with a baseline, exit non-zero on a regression.")
public final class EvalAgentCommand implements Callable<Integer> {

  @Option(names = "--set", required = true, description = "golden set name")
  String set;

  @Option(names = "--baseline", description = "a result id to compare with, or 'previous' (the set's newest completed result)")
  String baseline;

  @Option(names = "--set-file", description = "store this JSON file as the set first (replaces a set of that name)")
  Path setFile;

  @Option(names = "--url", defaultValue = "http://127.0.0.1:8080", description = "Argus base URL (default: ${DEFAULT-VALUE})")
  String url;

  @Option(names = "--threshold", defaultValue = "0.05",
      description = "largest allowed fall of a metric below the baseline, in metric units (default: ${DEFAULT-VALUE})")
  double threshold;

  @Option(names = "--timeout", defaultValue = "1800", description = "seconds to wait for the result (default: ${DEFAULT-VALUE})")
  long timeoutSeconds;

  @Option(names = "--json", description = "also write the result and the comparison to this file")
  Path json;

  @Override
  public Integer call() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      WebClient web = RunningArgus.client(vertx, url);
      if (setFile != null) {
        JsonObject body = new JsonObject(Files.readString(setFile));
        RunningArgus.check(RunningArgus.await(web.put("/api/eval/sets/" + set).sendJsonObject(body)), 200, "storing the set");
      }
      JsonObject baselineResult = baseline(web);
      JsonObject req = new JsonObject();
      if (baselineResult != null) {
        req.put("baseline", baselineResult.getString("resultId"));
      }
      JsonObject started = RunningArgus.check(RunningArgus.await(web.post("/api/eval/sets/" + set + "/runs").sendJsonObject(req)), 202,
          "starting the run");
      String resultId = started.getString("resultId");
      System.out.println("running set " + set + " (" + started.getInteger("total") + " cases), result " + resultId);
      JsonObject result = poll(web, resultId);
      Comparison cmp = Comparison.of(result.getJsonObject("metrics", new JsonObject()),
          baselineResult == null ? null : baselineResult.getJsonObject("metrics", new JsonObject()), threshold);
      System.out.println("baseline: " + (baselineResult == null ? "none" : baselineResult.getString("resultId")));
      System.out.print(cmp.table());
      for (Object o : result.getJsonArray("cases", new JsonArray())) {
        JsonObject c = (JsonObject) o;
        if ("failed".equals(c.getString("status"))) {
          System.out.println("case " + c.getString("id") + " failed: " + c.getString("reason"));
        }
      }
      if (json != null) {
        Files.writeString(json, new JsonObject().put("result", result).put("comparison", cmp.toJson()).encodePrettily());
      }
      System.out.println(cmp.passed() ? "PASS" : "FAIL: a metric fell more than " + threshold + " below the baseline");
      return cmp.passed() ? 0 : 1;
    } catch (IllegalStateException e) {
      System.err.println("eval-agent: " + e.getMessage());
      return 2;
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  private JsonObject baseline(WebClient web) {
    if (baseline == null) {
      return null;
    }
    if (!"previous".equals(baseline)) {
      return RunningArgus.check(RunningArgus.await(web.get("/api/eval/sets/" + set + "/results/" + baseline).send()), 200, "reading the baseline");
    }
    JsonArray results = RunningArgus.check(RunningArgus.await(web.get("/api/eval/sets/" + set + "/results").addQueryParam("limit", "50").send()),
        200, "listing results").getJsonArray("results", new JsonArray());
    for (Object o : results) {
      if (o instanceof JsonObject r && "completed".equals(r.getString("status"))) {
        return r;
      }
    }
    System.out.println("no completed result of " + set + " yet: no baseline");
    return null;
  }

  private JsonObject poll(WebClient web, String resultId) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutSeconds * 1000;
    int lastDone = -1;
    while (System.currentTimeMillis() < deadline) {
      JsonObject r = RunningArgus.check(RunningArgus.await(web.get("/api/eval/sets/" + set + "/results/" + resultId).send()), 200, "polling");
      if ("completed".equals(r.getString("status"))) {
        return r;
      }
      int done = r.getJsonArray("cases", new JsonArray()).size();
      if (done != lastDone) {
        lastDone = done;
        System.out.println(done + " of " + r.getInteger("total", 0) + " cases done");
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException("no result after " + timeoutSeconds + " s");
  }
}
