package dev.argus.decide.model;

import dev.argus.common.ApiException;
import dev.argus.config.BundledFiles;
import dev.argus.config.ConfigException;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Every scoring model and policy file, loaded once at start (blocking file reads: call from a worker or at start-up).
 * The live scoring model of a profile is {@code <profile>.json}; the live policies {@code policies.json}; any other
 * file in the folders is a candidate selectable by its {@code version} (shadow mode).
 */
public final class DecisionConfigs {

  private final Map<DecisionProfile, ScoringModel> live;
  private final Map<String, ScoringModel> byVersion;
  private final PolicySet livePolicies;
  private final Map<String, PolicySet> policiesByVersion;

  public DecisionConfigs(Map<DecisionProfile, ScoringModel> live, Map<String, ScoringModel> byVersion,
                         PolicySet livePolicies, Map<String, PolicySet> policiesByVersion) {
    this.live = Map.copyOf(live);
    this.byVersion = Map.copyOf(byVersion);
    this.livePolicies = livePolicies;
    this.policiesByVersion = Map.copyOf(policiesByVersion);
  }

  public static DecisionConfigs load(String scoringDir, String policiesDir) {
    Map<DecisionProfile, ScoringModel> live = new HashMap<>();
    Map<String, ScoringModel> byVersion = new TreeMap<>();
    for (Path f : files(BundledFiles.resolve(scoringDir), "decide.scoringDir")) {
      ScoringModel m = ScoringModel.from("scoring " + f.getFileName(), read(f));
      String base = f.getFileName().toString().replaceFirst("\\.json$", "");
      if (base.equals(m.profile().wire())) {
        live.put(m.profile(), m);
      }
      String key = m.profile().wire() + "@" + m.version();
      if (byVersion.put(key, m) != null) {
        throw new ConfigException("scoring version " + m.version() + " of " + m.profile().wire() + " is defined twice ("
            + f + ")");
      }
    }
    for (DecisionProfile p : DecisionProfile.values()) {
      if (!live.containsKey(p)) {
        throw new ConfigException("decide.scoringDir: no live scoring model " + p.wire() + ".json in " + scoringDir);
      }
    }
    PolicySet livePolicies = null;
    Map<String, PolicySet> policies = new TreeMap<>();
    for (Path f : files(BundledFiles.resolve(policiesDir), "decide.policiesDir")) {
      PolicySet ps = PolicySet.from("policies " + f.getFileName(), read(f));
      if (f.getFileName().toString().equals("policies.json")) {
        livePolicies = ps;
      }
      if (policies.put(ps.version(), ps) != null) {
        throw new ConfigException("policy version " + ps.version() + " is defined twice (" + f + ")");
      }
    }
    if (livePolicies == null) {
      throw new ConfigException("decide.policiesDir: no live policies.json in " + policiesDir);
    }
    return new DecisionConfigs(live, byVersion, livePolicies, policies);
  }

  private static List<Path> files(Path dir, String key) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
    } catch (IOException e) {
      throw new ConfigException(key + ": cannot read " + dir + ": " + e.getMessage());
    }
  }

  private static JsonObject read(Path f) {
    try {
      return new JsonObject(Files.readString(f));
    } catch (DecodeException | IOException e) {
      throw new ConfigException(f + " is not valid JSON: " + e.getMessage());
    }
  }

  public ScoringModel live(DecisionProfile p) {
    return live.get(p);
  }

  public PolicySet livePolicies() {
    return livePolicies;
  }

  /** A candidate's scoring model of that version for the profile, if there is one. */
  public Optional<ScoringModel> scoring(DecisionProfile p, String version) {
    return Optional.ofNullable(byVersion.get(p.wire() + "@" + version));
  }

  public Optional<PolicySet> policies(String version) {
    return Optional.ofNullable(policiesByVersion.get(version));
  }

  /** Whether any scoring model or policy file has this version. */
  public boolean knowsVersion(String version) {
    return policiesByVersion.containsKey(version)
        || byVersion.keySet().stream().anyMatch(k -> k.endsWith("@" + version));
  }

  /** 404 when no file has that version. */
  public void requireVersion(String version) {
    if (!knowsVersion(version)) {
      throw ApiException.notFound("unknown_version", "no scoring model or policy file has version '" + version + "'");
    }
  }
}
