package dev.argus.config;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClusterConfTest {

  private static final Path FILE = Path.of("conf", "argus.json");

  @Test
  void offByDefaultWithATcpMemberList() {
    ClusterConf c = ArgusConfig.load(FILE, Map.of()).cluster();
    assertFalse(c.enabled());
    assertFalse(c.multicast());
    assertEquals(List.of("127.0.0.1:5701"), c.members());
    assertEquals("127.0.0.1:5701", c.nodeId());
    assertEquals(12_000, c.takeoverBoundMs());
  }

  @Test
  void environmentTurnsItOnWithPostgres() {
    ClusterConf c = ArgusConfig.load(FILE, Map.of("ARGUS_CLUSTER_ENABLED", "true", "ARGUS_STORE_TYPE", "postgres",
        "ARGUS_CLUSTER_PORT", "5702", "ARGUS_CLUSTER_MEMBERS", "127.0.0.1:5701, 127.0.0.1:5702",
        "ARGUS_CLUSTER_LEASE_MS", "4000", "ARGUS_CLUSTER_RENEW_MS", "1000")).cluster();
    assertTrue(c.enabled());
    assertEquals(5702, c.port());
    assertEquals(List.of("127.0.0.1:5701", "127.0.0.1:5702"), c.members());
    assertEquals(4000, c.leaseMs());
    assertEquals("127.0.0.1:5702", c.nodeId());
  }

  @Test
  void clusterModeOnTheEmbeddedStoreIsRefusedClearly() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> ArgusConfig.load(FILE, Map.of("ARGUS_CLUSTER_ENABLED", "true")));
    assertTrue(e.getMessage().contains("cluster.enabled") && e.getMessage().contains("ARGUS_CLUSTER_ENABLED")
        && e.getMessage().contains("requires store.type=postgres"), e.getMessage());
  }

  @Test
  void wrongValuesNameTheSetting() {
    Map<String, String> pg = Map.of("ARGUS_STORE_TYPE", "postgres", "ARGUS_CLUSTER_ENABLED", "true");
    ConfigException renew = assertThrows(ConfigException.class, () -> ArgusConfig.load(FILE, with(pg,
        "ARGUS_CLUSTER_RENEW_MS", "6000")));
    assertTrue(renew.getMessage().contains("cluster.renewMs") && renew.getMessage().contains("half"),
        renew.getMessage());
    ConfigException member = assertThrows(ConfigException.class, () -> ArgusConfig.load(FILE, with(pg,
        "ARGUS_CLUSTER_MEMBERS", "127.0.0.1")));
    assertTrue(member.getMessage().contains("cluster.members") && member.getMessage().contains("host:port"),
        member.getMessage());
    ConfigException none = assertThrows(ConfigException.class, () -> ArgusConfig.load(FILE, with(pg,
        "ARGUS_CLUSTER_MEMBERS", "[]")));
    assertTrue(none.getMessage().contains("at least one"), none.getMessage());
    ConfigException name = assertThrows(ConfigException.class, () -> ArgusConfig.load(FILE, with(pg,
        "ARGUS_CLUSTER_NAME", "a b")));
    assertTrue(name.getMessage().contains("cluster.name"), name.getMessage());
  }

  private static Map<String, String> with(Map<String, String> base, String key, String value) {
    java.util.HashMap<String, String> m = new java.util.HashMap<>(base);
    m.put(key, value);
    return m;
  }
}
