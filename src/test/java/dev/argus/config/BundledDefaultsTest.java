package dev.argus.config;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The defaults ship on the classpath (inside the jar): a working directory without {@code conf/} still gets the
 * whole configuration, a configuration file overrides only what it sets, and the agent profiles and web pages are
 * there too. Security defaults: loopback only, loopback host names.
 */
class BundledDefaultsTest {

  @Test
  void aFolderWithoutConfUsesTheShippedDefaults() throws IOException {
    Path elsewhere = Files.createTempDirectory("argus-elsewhere-");
    JsonObject raw = ConfigLoader.load(ArgusConfig.DEFAULT_FILE, Map.of(), elsewhere);
    assertEquals(new JsonObject(Files.readString(Path.of("conf", "argus.json"))), raw);
    ArgusConfig conf = ArgusConfig.from(raw);
    assertEquals("127.0.0.1", conf.http().host(), "loopback by default");
    assertTrue(conf.http().loopbackOnly());
    assertEquals(HttpConf.LOOPBACK_NAMES, conf.http().allowedHosts());
  }

  @Test
  void aConfigurationFileOverridesOnlyWhatItSets() throws IOException {
    Path dir = Files.createTempDirectory("argus-conf-");
    Files.createDirectories(dir.resolve("conf"));
    Files.writeString(dir.resolve("conf/argus.json"), "{\"http\": {\"port\": 9999}, \"store\": {\"type\": \"postgres\"}}");
    ArgusConfig conf = ArgusConfig.from(ConfigLoader.load(ArgusConfig.DEFAULT_FILE,
        Map.of("ARGUS_HTTP_HOST", "0.0.0.0"), dir));
    assertEquals(9999, conf.http().port());
    assertEquals("postgres", conf.store().type());
    assertEquals("0.0.0.0", conf.http().host(), "the environment still overrides");
    assertEquals(10L * 1024 * 1024, conf.http().maxBodyBytes(), "the rest comes from the defaults");
    assertEquals("bge-small", conf.embedding().provider());
  }

  @Test
  void aFileNamedExplicitlyMustExist() throws IOException {
    Path dir = Files.createTempDirectory("argus-conf-");
    ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigLoader.load(Path.of("my.json"), Map.of(), dir));
    assertTrue(e.getMessage().contains("cannot read configuration file"), e.getMessage());
  }

  @Test
  void profilesAndPagesShipToo() throws IOException {
    Path profiles = BundledFiles.bundled("conf/agents").orElseThrow();
    try (Stream<Path> files = Files.list(profiles)) {
      assertTrue(files.map(p -> p.getFileName().toString()).toList().contains("assistant.json"));
    }
    for (String page : List.of("webroot/index.html", "webroot/chat.html", "webroot/app.js")) {
      assertTrue(BundledFiles.bundled(page).isPresent(), page);
    }
    assertEquals(Path.of("conf", "agents"), BundledFiles.resolve("conf/agents"), "a local folder wins");
    assertEquals(Path.of("no/such/folder"), BundledFiles.resolve("no/such/folder"), "unchanged when neither exists");
  }

  @Test
  void allowedHostsAndOriginsAreValidated() {
    ConfigException none = assertThrows(ConfigException.class, () -> ArgusConfig.from(ConfigLoader.load(
        ArgusConfig.DEFAULT_FILE, Map.of("ARGUS_HTTP_ALLOWED_HOSTS", ""))));
    assertTrue(none.getMessage().contains("http.allowedHosts"), none.getMessage());
    ConfigException origin = assertThrows(ConfigException.class, () -> ArgusConfig.from(ConfigLoader.load(
        ArgusConfig.DEFAULT_FILE, Map.of("ARGUS_HTTP_ALLOWED_ORIGINS", "evil.example/path"))));
    assertTrue(origin.getMessage().contains("http.allowedOrigins"), origin.getMessage());
  }
}
