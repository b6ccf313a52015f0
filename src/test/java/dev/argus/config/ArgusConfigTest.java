package dev.argus.config;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArgusConfigTest {

  private static final Path FILE = Path.of("conf", "argus.json");

  @Test
  void shippedFileIsValid() {
    ArgusConfig conf = ArgusConfig.load(FILE, Map.of());
    assertEquals(8080, conf.http().port());
    assertEquals(Path.of("data"), conf.data().dir());
    assertEquals("sqlite", conf.store().type());
  }

  @Test
  void environmentOverridesConvertToTheFileType() {
    ArgusConfig conf = ArgusConfig.load(FILE, Map.of("ARGUS_HTTP_PORT", "9191", "ARGUS_DATA_DIR", "/tmp/x",
        "ARGUS_STORE_TYPE", "postgres", "ARGUS_PG_HOST", "db.local", "ARGUS_INGEST_OVERLAP_SENTENCES", "3",
        "ARGUS_RETRIEVAL_WEIGHTS", "{\"vector\":1,\"keyword\":0,\"trigram\":0}"));
    assertEquals(9191, conf.http().port());
    assertEquals(Path.of("/tmp/x"), conf.data().dir());
    assertTrue(conf.store().isPostgres());
    assertEquals("db.local", conf.pg().host());
    assertEquals(3, conf.ingest().overlapSentences());
    assertEquals(1.0, conf.retrieval().vectorWeight());
  }

  @Test
  void wrongValueNamesTheSettingAndItsVariable() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> ArgusConfig.load(FILE, Map.of("ARGUS_HTTP_PORT", "eighty")));
    assertTrue(e.getMessage().contains("http.port"), e.getMessage());
    assertTrue(e.getMessage().contains("ARGUS_HTTP_PORT"), e.getMessage());

    ConfigException range = assertThrows(ConfigException.class,
        () -> ArgusConfig.load(FILE, Map.of("ARGUS_HTTP_PORT", "70000")));
    assertTrue(range.getMessage().contains("between 0 and 65535"), range.getMessage());

    ConfigException type = assertThrows(ConfigException.class,
        () -> ArgusConfig.load(FILE, Map.of("ARGUS_STORE_TYPE", "mysql")));
    assertTrue(type.getMessage().contains("store.type") && type.getMessage().contains("sqlite, postgres"),
        type.getMessage());
  }

  @Test
  void crossFieldRulesAreChecked() {
    JsonObject raw = ConfigLoader.load(FILE, Map.of());
    raw.getJsonObject("ingest").put("chunkMaxChars", 100).put("chunkTargetChars", 500);
    ConfigException e = assertThrows(ConfigException.class, () -> ArgusConfig.from(raw));
    assertTrue(e.getMessage().contains("ingest.chunkMaxChars"), e.getMessage());

    ConfigException openai = assertThrows(ConfigException.class,
        () -> ArgusConfig.load(FILE, Map.of("ARGUS_EMBEDDING_PROVIDER", "openai")));
    assertTrue(openai.getMessage().contains("embedding.baseUrl"), openai.getMessage());
  }

  @Test
  void missingFileIsAClearError() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> ArgusConfig.load(Path.of("conf", "nope.json"), Map.of()));
    assertTrue(e.getMessage().contains("nope.json"));
  }
}
