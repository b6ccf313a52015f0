package dev.argus.cluster;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static dev.argus.testing.Await.await;

/**
 * One Argus node in its own JVM ({@code java -cp <the test's class path> dev.argus.cli.Main serve}), so that a test
 * can kill it the honest way (SIGKILL: no shutdown hook, no flush, its sockets just vanish). Its output goes to a log
 * file next to its configuration.
 */
final class NodeProcess {

  final String name;
  final int httpPort;
  final int clusterPort;
  final Path log;
  private final Process process;

  private NodeProcess(String name, int httpPort, int clusterPort, Path log, Process process) {
    this.name = name;
    this.httpPort = httpPort;
    this.clusterPort = clusterPort;
    this.log = log;
    this.process = process;
  }

  /** Starts a node with the configuration {@code conf} (a whole {@code argus.json}) written into {@code dir}. */
  static NodeProcess start(String name, JsonObject conf, Path dir) throws IOException {
    Files.createDirectories(dir);
    Path confFile = dir.resolve(name + ".json");
    Files.writeString(confFile, conf.encodePrettily());
    Path log = dir.resolve(name + ".log");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx384m", "--add-modules", "jdk.incubator.vector",
        "-Djava.util.logging.config.file=src/test/resources/logging.properties",
        "-cp", System.getProperty("java.class.path"), "dev.argus.cli.Main", "serve", "--config", confFile.toString());
    pb.redirectErrorStream(true).redirectOutput(log.toFile());
    return new NodeProcess(name, conf.getJsonObject("http").getInteger("port"),
        conf.getJsonObject("cluster").getInteger("port"), log, pb.start());
  }

  String nodeId() {
    return "127.0.0.1:" + clusterPort;
  }

  /** Waits until the node answers HTTP and its log shows a cluster of {@code members}. */
  void awaitUp(Vertx vertx, int members, long timeoutMs) throws Exception {
    WebClient web = WebClient.create(vertx);
    try {
      long deadline = System.currentTimeMillis() + timeoutMs;
      while (System.currentTimeMillis() < deadline) {
        if (!process.isAlive()) {
          throw new AssertionError(name + " exited with " + process.exitValue() + ":\n" + tail());
        }
        try {
          if (await(web.get(httpPort, "127.0.0.1", "/api/health").send(), 5).statusCode() == 200
              && Files.readString(log).contains("Members {size:" + members)) {
            return;
          }
        } catch (RuntimeException | AssertionError notYet) {
          // not listening yet
        }
        Thread.sleep(250);
      }
      throw new AssertionError(name + " did not join a cluster of " + members + " within " + timeoutMs + " ms:\n"
          + tail());
    } finally {
      web.close();
    }
  }

  /** SIGKILL. */
  void kill() throws InterruptedException {
    process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
  }

  boolean alive() {
    return process.isAlive();
  }

  String tail() {
    try {
      String s = Files.readString(log);
      return s.length() > 4000 ? s.substring(s.length() - 4000) : s;
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
