package dev.argus.graph;

import dev.argus.graph.normalize.Domains;
import dev.argus.graph.normalize.Emails;
import dev.argus.graph.normalize.IpAddrs;
import dev.argus.graph.normalize.Names;
import dev.argus.graph.normalize.Phones;
import dev.argus.graph.normalize.PostalAddresses;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Normalization cases: one identifier written several ways is one key; things that are not identifiers are refused. */
class NormalizationTest {

  @Test
  void emails() {
    assertEquals(Optional.of("kimmarlo@gmail.com"), Emails.canonical(" Kim.Marlo+shop@GMAIL.com "));
    assertEquals(Optional.of("kimmarlo@gmail.com"), Emails.canonical("kim.marlo@googlemail.com"));
    assertEquals(Optional.of("k.marlo@example.com"), Emails.canonical("K.Marlo+x@Example.com"), "dots count elsewhere");
    assertTrue(Emails.canonical("not an email").isEmpty());
    assertTrue(Emails.canonical("+tag@example.com").isEmpty());
    assertEquals("example.com", Emails.domain("k@example.com"));
  }

  @Test
  void phonesToE164() {
    assertEquals(Optional.of("+4915112345678"), Phones.e164("0151 1234 5678", "DE"));
    assertEquals(Optional.of("+4915112345678"), Phones.e164("+49 (151) 1234-5678", "US"));
    assertEquals(Optional.of("+12125550123"), Phones.e164("(212) 555-0123", "US"));
    assertTrue(Phones.e164("12", "DE").isEmpty());
    assertTrue(Phones.e164("call me", "DE").isEmpty());
    assertEquals(java.util.List.of("+4915112345678"), Phones.find("Ring +49 151 12345678 after 5.", null));
  }

  @Test
  void ipsAndNetworks() {
    assertEquals(Optional.of("10.0.0.1"), IpAddrs.address("10.0.0.1"));
    assertEquals(Optional.of("2001:db8::1"), IpAddrs.address("2001:0DB8:0000:0000:0000:0000:0000:0001"));
    assertTrue(IpAddrs.address("10.0.0.0/24").isEmpty(), "a range is not an address");
    assertTrue(IpAddrs.address("999.1.1.1").isEmpty());
    assertEquals(Optional.of("10.1.2.0/24"), IpAddrs.network("10.1.2.77"));
    assertEquals(Optional.of("2001:db8:1:2::/64"), IpAddrs.network("2001:db8:1:2:3:4:5:6"));
    assertEquals(Optional.of("10.1.2.0/24"), IpAddrs.block("10.1.2.7/24"));
    assertTrue(IpAddrs.contains("203.0.113.0/24", "203.0.113.200"));
    assertFalse(IpAddrs.contains("203.0.113.0/24", "203.0.114.1"));
  }

  @Test
  void addressesMeetAtTheBuilding() {
    String a = PostalAddresses.key("12 Main Street, Apt 3", "Springfield", "62701", "US");
    String b = PostalAddresses.key("12 MAIN ST.", "springfield", "62 701", "us");
    assertEquals("12 main st|springfield|62701|us", a);
    assertEquals(a, b);
    assertEquals("5 hauptstr|munchen|80331|de", PostalAddresses.key("5 Hauptstraße", "München", "80331", "DE"));
    assertNull(PostalAddresses.key(null, "Berlin", null, "DE"));
  }

  @Test
  void namesAndTrigrams() {
    assertEquals("marlo trading", Names.normalize("Marlo Trading GmbH"));
    assertEquals("acme", Names.normalize("ACME, Ltd."));
    assertEquals(1.0, Names.similarity("marlo trading", "marlo trading"));
    // "marlo" padded "  marlo " gives 6 trigrams, "marla" 6; shared: "  m", " ma", "mar", "arl" = 4; 4 / (6+6-4) = 0.5
    assertEquals(0.5, Names.similarity("marlo", "marla"));
    assertEquals(0.0, Names.similarity("abc", "xyz"));
  }

  @Test
  void domains() {
    assertEquals(Optional.of("marlo-shop.example"), Domains.of("https://www.Marlo-Shop.example/about?x=1"));
    assertEquals(Optional.of("xn--mnchen-3ya.de"), Domains.of("münchen.de"));
    assertTrue(Domains.of("not a domain").isEmpty());
  }
}
