package dev.argus.citations;

import dev.argus.config.ArgusConfig;
import dev.argus.config.CitationsConf;
import dev.argus.config.ConfigException;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CitationsConfTest {

  @Test
  void theShippedSectionAndItsOverrides() {
    CitationsConf c = ArgusConfig.load(ArgusConfig.DEFAULT_FILE, Map.of()).citations();
    assertEquals("conf/citations/rules.json", c.rulesFile());
    assertEquals(2000, c.timeoutMs());
    CitationsConf overridden = ArgusConfig.load(ArgusConfig.DEFAULT_FILE,
        Map.of("ARGUS_CITATIONS_TIMEOUT_MS", "500", "ARGUS_CITATIONS_GRAPH_TIMEOUT_MS", "400")).citations();
    assertEquals(500, overridden.timeoutMs());
    assertEquals(400, overridden.graphTimeoutMs());
  }

  @Test
  void wrongValuesNameTheKey() {
    ArgusConfig base = ArgusConfig.load(ArgusConfig.DEFAULT_FILE, Map.of());
    ConfigException e = assertThrows(ConfigException.class, () -> base.with("citations", "graphTimeoutMs", 5000));
    assertTrue(e.getMessage().startsWith("citations.graphTimeoutMs"), e.getMessage());
    assertThrows(ConfigException.class, () -> base.with("citations", "maxCitations", 0));
    assertThrows(ConfigException.class, () -> base.with("citations", "rulesFile", " "));
  }
}
