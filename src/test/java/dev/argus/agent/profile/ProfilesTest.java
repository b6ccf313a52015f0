package dev.argus.agent.profile;

import dev.argus.config.AgentConf;

import dev.argus.common.ApiException;
import dev.argus.config.ArgusConfig;
import dev.argus.config.ConfigException;
import dev.argus.testing.TestApp;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Profiles are loaded and validated at start; errors name the file and the key; unknown profile = 400. */
class ProfilesTest {

  private static AgentConf conf(Path dir) {
    return TestApp.config(TestApp.tempDataDir()).with("agent", "profilesDir", dir.toString()).agent();
  }

  @Test
  void shippedAssistantProfileIsValid() {
    Profiles profiles = Profiles.load(TestApp.config(TestApp.tempDataDir()).agent());
    Profile p = profiles.get(null);
    assertEquals("assistant", p.name());
    assertTrue(p.tools().contains("knowledge_search"));
    assertEquals(2, p.limits().maxRefinements());
    assertEquals(0.5, p.policies().minSupport());
    ApiException e = assertThrows(ApiException.class, () -> profiles.get("nope"));
    assertEquals(400, e.status());
    assertEquals("unknown_profile", e.code());
  }

  @Test
  void invalidProfilesStopStartWithTheFileAndKey() throws Exception {
    Path dir = Files.createTempDirectory("profiles");
    String valid = Files.readString(Path.of("conf", "agents", "assistant.json"));
    Files.writeString(dir.resolve("assistant.json"), valid.replace("\"get_document\"", "\"launch_missiles\""));
    ConfigException tool = assertThrows(ConfigException.class, () -> Profiles.load(conf(dir)));
    assertTrue(tool.getMessage().contains("assistant.json") && tool.getMessage().contains("tools")
        && tool.getMessage().contains("launch_missiles"), tool.getMessage());

    Files.writeString(dir.resolve("assistant.json"), valid.replace("\"minSupport\": 0.5", "\"minSupport\": 3"));
    ConfigException range = assertThrows(ConfigException.class, () -> Profiles.load(conf(dir)));
    assertTrue(range.getMessage().contains("policies.minSupport"), range.getMessage());

    Files.writeString(dir.resolve("assistant.json"), "{ not json");
    assertThrows(ConfigException.class, () -> Profiles.load(conf(dir)));

    Files.writeString(dir.resolve("assistant.json"), valid.replace("\"name\": \"assistant\"", "\"name\": \"other\""));
    ConfigException missingDefault = assertThrows(ConfigException.class, () -> Profiles.load(conf(dir)));
    assertTrue(missingDefault.getMessage().contains("agent.defaultProfile"), missingDefault.getMessage());
  }

  @Test
  void agentSectionIsValidated() {
    ConfigException e = assertThrows(ConfigException.class, () -> TestApp.config(TestApp.tempDataDir())
        .with("agent", "maxRefinements", 99));
    assertTrue(e.getMessage().contains("agent.maxRefinements") && e.getMessage().contains("ARGUS_AGENT_MAX_REFINEMENTS"),
        e.getMessage());
    ArgusConfig ok = TestApp.config(TestApp.tempDataDir()).with("agent", "maxRefinements", 1);
    assertEquals(1, ok.agent().maxRefinements());
  }
}
