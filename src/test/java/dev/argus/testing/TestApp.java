package dev.argus.testing;

import dev.argus.app.MainVerticle;
import dev.argus.config.ArgusConfig;
import dev.argus.config.ConfigLoader;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Starts the whole service in a test: real Vert.x, real SQLite file in a fresh temporary folder, real HTTP
 * server on a free port. {@link #config(Path)} gives the shipped configuration with test-friendly overrides
 * (no sample load, port 0); adjust it with {@link ArgusConfig#with} before {@link #start}.
 */
public final class TestApp {

  private final Vertx vertx;
  private final MainVerticle main;
  private final String deploymentId;

  private TestApp(Vertx vertx, MainVerticle main, String deploymentId) {
    this.vertx = vertx;
    this.main = main;
    this.deploymentId = deploymentId;
  }

  /** The shipped {@code conf/argus.json}, with the data folder set, HTTP on a free port and no samples. */
  public static ArgusConfig config(Path dataDir) {
    JsonObject raw = ConfigLoader.load(ArgusConfig.DEFAULT_FILE, Map.of());
    raw.getJsonObject("data").put("dir", dataDir.toString());
    raw.getJsonObject("http").put("port", 0).put("host", "127.0.0.1");
    raw.getJsonObject("ingest").put("loadSamples", false);
    return ArgusConfig.from(raw);
  }

  public static Path tempDataDir() {
    try {
      return Files.createTempDirectory("argus-test-");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  public static Future<TestApp> start(Vertx vertx, ArgusConfig conf) {
    MainVerticle main = new MainVerticle(conf);
    return vertx.deployVerticle(main).map(id -> new TestApp(vertx, main, id));
  }

  public int port() {
    return main.httpPort();
  }

  public MainVerticle main() {
    return main;
  }

  public Vertx vertx() {
    return vertx;
  }

  public Future<Void> stop() {
    return vertx.undeploy(deploymentId);
  }
}
