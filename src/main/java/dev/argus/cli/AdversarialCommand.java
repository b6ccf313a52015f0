package dev.argus.cli;

import dev.argus.adversarial.Regressions;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code argus adversarial --suite all}: starts an adversarial run on a running Argus ({@code POST
 * /api/adversarial/runs}), waits for its report, prints the detection rate per scenario type and the vulnerabilities,
 * and exits 1 on a regression — against the previous stored run of the same suite and size (the server compares), or
 * against a saved report given with {@code --baseline FILE} — 2 when the run could not be done or failed, else 0.
 */
@Command(name = "adversarial", mixinStandardHelpOptions = true,
    description = "Run adversarial scenarios against a running Argus; exit non-zero on a regression.")
public final class AdversarialCommand implements Callable<Integer> {

  @Option(names = "--suite", defaultValue = "all", split = ",",
      description = "'all' or scenario types separated by commas (default: ${DEFAULT-VALUE})")
  List<String> suite;

  @Option(names = "--size", description = "sellers of the synthetic world (default: adversarial.defaultSize)")
  Integer size;

  @Option(names = "--baseline", description = "a saved report (JSON, e.g. from --json) to compare with, instead of "
      + "the previous stored run")
  Path baseline;

  @Option(names = "--tolerance", defaultValue = "0.0",
      description = "largest allowed fall of a detection rate below the --baseline file's (default: ${DEFAULT-VALUE})")
  double tolerance;

  @Option(names = "--url", defaultValue = "http://127.0.0.1:8080", description = "Argus base URL (default: ${DEFAULT-VALUE})")
  String url;

  @Option(names = "--timeout", defaultValue = "3600", description = "seconds to wait for the report (default: ${DEFAULT-VALUE})")
  long timeoutSeconds;

  @Option(names = "--json", description = "also write the whole run (with its report) to this file")
  Path json;

  @Override
  public Integer call() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      WebClient web = RunningArgus.client(vertx, url);
      JsonObject req = new JsonObject().put("suite", suite.size() == 1 && "all".equals(suite.get(0)) ? "all"
          : new JsonArray(List.copyOf(suite)));
      if (size != null) {
        req.put("size", size);
      }
      JsonObject fileBaseline = baseline == null ? null : new JsonObject(Files.readString(baseline));
      if (fileBaseline != null && fileBaseline.containsKey("report")) {
        fileBaseline = fileBaseline.getJsonObject("report");
      }
      JsonObject started = RunningArgus.check(RunningArgus.await(web.post("/api/adversarial/runs").sendJsonObject(req)), 202, "starting the run");
      String id = started.getString("executionId");
      System.out.println("adversarial run " + id + " (" + started.getJsonArray("suite").size() + " scenario types, "
          + started.getInteger("size") + " sellers)");
      JsonObject run = poll(web, id);
      if (json != null) {
        Files.writeString(json, run.encodePrettily());
      }
      if (!"completed".equals(run.getString("status"))) {
        System.err.println("adversarial: the run " + run.getString("status") + ": " + run.getString("error"));
        return 2;
      }
      JsonObject report = run.getJsonObject("report");
      System.out.print(table(report));
      JsonArray regressions = fileBaseline != null ? Regressions.compare(report, fileBaseline, tolerance)
          : report.getJsonArray("regressions", new JsonArray());
      System.out.println("baseline: " + (fileBaseline != null ? baseline.toString()
          : report.getString("baselineExecutionId", "none (first run of this suite and size)")));
      if (regressions.isEmpty()) {
        System.out.println("PASS: no regression");
        return 0;
      }
      regressions.forEach(r -> System.out.println("REGRESSION " + ((JsonObject) r).encode()));
      return 1;
    } catch (IllegalStateException e) {
      System.err.println("adversarial: " + e.getMessage());
      return 2;
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  /** The detection table and the vulnerabilities by severity. */
  public static String table(JsonObject report) {
    StringBuilder b = new StringBuilder(String.format("%-24s %8s %8s %7s %7s %10s%n", "type", "planted", "detected",
        "missed", "errors", "detection"));
    JsonObject types = report.getJsonObject("types", new JsonObject());
    for (String t : types.fieldNames()) {
      JsonObject c = types.getJsonObject(t);
      Double rate = c.getDouble("detectionRate");
      b.append(String.format("%-24s %8d %8d %7d %7d %10s%n", t, c.getInteger("planted"), c.getInteger("detected"),
          c.getInteger("missed"), c.getInteger("errors"), rate == null ? "n/a" : String.format("%.2f", rate)));
    }
    b.append("vulnerabilities by severity: ").append(report.getJsonObject("vulnerabilitiesBySeverity").encode())
        .append('\n');
    for (Object o : report.getJsonArray("vulnerabilities", new JsonArray())) {
      JsonObject v = (JsonObject) o;
      b.append("  [").append(v.getString("severity")).append("] ").append(v.getString("type")).append(" / ")
          .append(v.getString("technique")).append(" ").append(v.getString("subject")).append(": ")
          .append(v.getString("observed")).append('\n');
    }
    return b.toString();
  }

  private JsonObject poll(WebClient web, String id) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutSeconds * 1000;
    String last = "";
    while (System.currentTimeMillis() < deadline) {
      JsonObject r = RunningArgus.check(RunningArgus.await(web.get("/api/adversarial/runs/" + id).send()), 200, "polling");
      if (!"running".equals(r.getString("status"))) {
        return r;
      }
      JsonObject p = r.getJsonObject("progress", new JsonObject());
      String line = r.getString("phase") + ": " + p.getInteger("probed", 0) + " of " + p.getInteger("planted", 0)
          + " scenarios probed";
      if (!line.equals(last)) {
        System.out.println(line);
        last = line;
      }
      Thread.sleep(1000);
    }
    throw new IllegalStateException("no report after " + timeoutSeconds + " s");
  }
}
