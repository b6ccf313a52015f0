package dev.argus.graph.normalize;

import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;

import java.util.Optional;

/**
 * IP addresses and networks with seancfoley IPAddress: canonical text (IPv6 compressed, IPv4-mapped kept as given),
 * the network an address belongs to for linking (IPv4 /24, IPv6 /64), CIDR blocks and containment.
 */
public final class IpAddrs {

  private IpAddrs() {
  }

  /** The canonical text of a single address (no prefix), or empty. */
  public static Optional<String> address(String raw) {
    if (raw == null || raw.length() > 64) {
      return Optional.empty();
    }
    IPAddressString s = new IPAddressString(raw.strip());
    if (!s.isIPAddress() || s.isPrefixed()) {
      return Optional.empty();
    }
    return Optional.of(s.getAddress().toCanonicalString());
  }

  /** The linking network of an address: its /24 (IPv4) or /64 (IPv6) block in CIDR text, or empty. */
  public static Optional<String> network(String raw) {
    if (raw == null || raw.length() > 64) {
      return Optional.empty();
    }
    IPAddressString s = new IPAddressString(raw.strip());
    if (!s.isIPAddress()) {
      return Optional.empty();
    }
    IPAddress a = s.getAddress().withoutPrefixLength();
    int bits = a.isIPv4() ? 24 : 64;
    return Optional.of(a.toPrefixBlock(bits).toCanonicalString());
  }

  /** The canonical CIDR block of {@code raw} ({@code 10.0.0.7/24} becomes {@code 10.0.0.0/24}), or empty. */
  public static Optional<String> block(String raw) {
    if (raw == null || raw.length() > 64) {
      return Optional.empty();
    }
    IPAddressString s = new IPAddressString(raw.strip());
    if (!s.isIPAddress() || !s.isPrefixed()) {
      return Optional.empty();
    }
    return Optional.of(s.getAddress().toPrefixBlock().toCanonicalString());
  }

  /** Whether the block {@code cidr} contains the address {@code ip} (false when either does not parse). */
  public static boolean contains(String cidr, String ip) {
    IPAddress block = new IPAddressString(cidr).getAddress();
    IPAddress addr = new IPAddressString(ip).getAddress();
    return block != null && addr != null && block.toPrefixBlock().contains(addr);
  }
}
