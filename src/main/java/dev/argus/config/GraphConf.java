package dev.argus.config;

import java.util.List;

/**
 * Section {@code graph}: the entity graph's traversal bounds and its risk data. {@code fanout} edges per node and
 * {@code nodeLimit} nodes bound every traversal (a hub costs what its heaviest {@code fanout} edges cost);
 * {@code investigateMinWeight} is the weakest edge an investigation follows; {@code flaggedRangesFile} lists flagged
 * IP ranges (CIDR, one a line, {@code #} comments) for {@code ip_risk}; {@code sharedIpUsers} is how many other users
 * of one IP count as fan-out; {@code extraFreeMailDomains} adds to the bundled free-mail list; {@code cacheNodes} is
 * how many nodes' heaviest edges and rows the graph store keeps in memory for traversals (0: none).
 */
public record GraphConf(int fanout, int nodeLimit, double investigateMinWeight, String flaggedRangesFile,
                        int sharedIpUsers, List<String> extraFreeMailDomains, long busTimeoutMs, int cacheNodes) {

  public static GraphConf from(Settings s) {
    return new GraphConf(
        s.intIn("fanout", 50, 1, 10_000),
        s.intIn("nodeLimit", 500, 2, 100_000),
        s.doubleIn("investigateMinWeight", 0.7, 0.0, 1.0),
        s.string("flaggedRangesFile", "conf/graph/flagged-ranges.txt"),
        s.intIn("sharedIpUsers", 5, 1, 1_000_000),
        s.strings("extraFreeMailDomains", List.of()),
        s.longIn("busTimeoutMs", 10_000, 100, 600_000),
        s.intIn("cacheNodes", 50_000, 0, 10_000_000));
  }
}
