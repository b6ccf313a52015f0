package dev.argus.graph;

import dev.argus.graph.normalize.IpAddrs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The reference lists behind {@code email_risk} and {@code ip_risk}: disposable e-mail domains (the npm package
 * {@code disposable-email-domains}, shipped as data with its licence under {@code src/main/resources/graph/}),
 * free-mail providers (bundled, plus configured extras) and flagged IP ranges (a file under {@code conf/}).
 */
public final class RiskLists {

  /** One flagged range with its reason. */
  public record Range(String cidr, String reason) {
  }

  private final Set<String> disposable;
  private final Set<String> freeMail;
  private final List<Range> flagged;
  private final int sharedIpThreshold;

  public RiskLists(Set<String> disposable, Set<String> freeMail, List<Range> flagged, int sharedIpThreshold) {
    this.disposable = Set.copyOf(disposable);
    this.freeMail = Set.copyOf(freeMail);
    this.flagged = List.copyOf(flagged);
    this.sharedIpThreshold = sharedIpThreshold;
  }

  /** How many other subjects on one IP count as shared-IP fan-out. */
  public int sharedIpThreshold() {
    return sharedIpThreshold;
  }

  /** The bundled lists, extra free-mail domains and the flagged ranges of {@code rangesFile} (absent: none). */
  public static RiskLists load(Collection<String> extraFreeMail, Path rangesFile, int sharedIpThreshold) {
    Set<String> free = new HashSet<>(resource("graph/free-mail-domains.txt"));
    extraFreeMail.forEach(d -> free.add(d.toLowerCase(Locale.ROOT).strip()));
    List<Range> ranges = new ArrayList<>();
    if (rangesFile != null && Files.isRegularFile(rangesFile)) {
      try {
        for (String line : Files.readAllLines(rangesFile, StandardCharsets.UTF_8)) {
          String t = line.strip();
          if (t.isEmpty() || t.startsWith("#")) {
            continue;
          }
          String[] parts = t.split("\\s+", 2);
          String block = IpAddrs.block(parts[0]).orElseThrow(() -> new IllegalArgumentException(
              rangesFile + ": not a CIDR range: " + parts[0]));
          ranges.add(new Range(block, parts.length > 1 ? parts[1].strip() : "flagged range"));
        }
      } catch (IOException e) {
        throw new IllegalStateException("cannot read " + rangesFile, e);
      }
    }
    return new RiskLists(new HashSet<>(resource("graph/disposable-email-domains.txt")), free, ranges,
        sharedIpThreshold);
  }

  private static List<String> resource(String name) {
    List<String> out = new ArrayList<>();
    try (InputStream in = RiskLists.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line; (line = r.readLine()) != null; ) {
        String t = line.strip().toLowerCase(Locale.ROOT);
        if (!t.isEmpty() && !t.startsWith("#")) {
          out.add(t);
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + name, e);
    }
    return out;
  }

  public boolean disposable(String domain) {
    return disposable.contains(domain);
  }

  public boolean freeMail(String domain) {
    return freeMail.contains(domain);
  }

  public Set<String> freeMailDomains() {
    return freeMail;
  }

  /** The flagged ranges containing {@code ip}. */
  public List<Range> flaggedRanges(String ip) {
    return flagged.stream().filter(r -> IpAddrs.contains(r.cidr(), ip)).toList();
  }

  public int disposableCount() {
    return disposable.size();
  }
}
