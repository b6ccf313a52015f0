package dev.argus.agent.profile;

import dev.argus.config.AgentConf;

import dev.argus.common.ApiException;
import dev.argus.config.ConfigException;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** The validated agent profiles, loaded once at start from {@code agent.profilesDir} (one JSON file per profile). */
public final class Profiles {

  private final Map<String, Profile> byName;
  private final String defaultName;

  private Profiles(Map<String, Profile> byName, String defaultName) {
    this.byName = Map.copyOf(byName);
    this.defaultName = defaultName;
  }

  /** Reads every {@code *.json} of the folder; fails naming the file and the key when one is invalid. */
  public static Profiles load(AgentConf conf) {
    Path dir = dev.argus.config.BundledFiles.resolve(conf.profilesDir()); // the shipped profiles when the folder is absent
    Map<String, Profile> profiles = new TreeMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
        JsonObject json;
        try {
          json = new JsonObject(Files.readString(f));
        } catch (DecodeException e) {
          throw new ConfigException("agent profile " + f + " is not valid JSON: " + e.getMessage());
        }
        Profile p = Profile.from("profile " + f.getFileName(), json, conf);
        if (profiles.put(p.name(), p) != null) {
          throw new ConfigException("agent profile name '" + p.name() + "' is defined twice (" + f + ")");
        }
      }
    } catch (IOException e) {
      throw new ConfigException("agent.profilesDir (env ARGUS_AGENT_PROFILES_DIR): cannot read " + dir + ": " + e.getMessage());
    }
    if (!profiles.containsKey(conf.defaultProfile())) {
      throw new ConfigException("agent.defaultProfile (env ARGUS_AGENT_DEFAULT_PROFILE): no profile named '"
          + conf.defaultProfile() + "' in " + dir + " (found " + profiles.keySet() + ")");
    }
    return new Profiles(profiles, conf.defaultProfile());
  }

  /** The profile of that name ({@code null} = the default); 400 {@code unknown_profile} when there is none. */
  public Profile get(String name) {
    Profile p = byName.get(name == null ? defaultName : name);
    if (p == null) {
      throw ApiException.badRequest("unknown_profile", "unknown agent profile '" + name + "' (known: "
          + byName.keySet() + ")");
    }
    return p;
  }

  /** Every profile, by name. */
  public java.util.Collection<Profile> all() {
    return byName.values();
  }

  public boolean has(String name) {
    return byName.containsKey(name);
  }

  public String defaultName() {
    return defaultName;
  }
}
