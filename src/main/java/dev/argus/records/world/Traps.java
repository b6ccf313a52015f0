package dev.argus.records.world;

import java.util.ArrayList;
import java.util.List;

/**
 * False-positive traps: honest sellers that share identifiers for innocent reasons. Their label says
 * {@code fraud: false}; a detector that flags them is wrong.
 */
final class Traps {

  private Traps() {
  }

  /** 2-4 family members, one surname, one home address; everything else their own. */
  static void familyAddress(Population p) {
    Fakes f = p.f;
    Plans.Group g = p.group("trap_family_address", false);
    String surname = f.last();
    Fakes.Address home = f.address("US");
    for (int i = 0; i < f.between(2, 4); i++) {
      Plans.Seller s = p.seller(g.label(), f.between(100, 900));
      s.legalName = f.first() + " " + surname;
      s.country = "US";
      s.currency = "USD";
      s.address = home;
      g.sellers.add(s);
    }
    g.mentions.addAll(List.of(home.line1() + ", " + home.city(), "surname " + surname));
    g.story = "Family business: relatives with their own shops registered at one home address; identities, devices, "
        + "phones and bank accounts verified as separate. No fraud.";
  }

  /** 5-8 sellers working from one co-working space: addresses in one /24, two on the very same IP. */
  static void coworkingIp(Population p) {
    Fakes f = p.f;
    Plans.Group g = p.group("trap_coworking_ip", false);
    String gateway = f.ipv4();
    int k = f.between(5, 8);
    for (int i = 0; i < k; i++) {
      Plans.Seller s = p.seller(g.label(), f.between(60, 900));
      s.ips = new ArrayList<>(List.of(i < 2 ? gateway : f.sameNet24(gateway)));
      g.sellers.add(s);
    }
    String net = gateway.substring(0, gateway.lastIndexOf('.')) + ".0/24";
    g.mentions.addAll(List.of("network " + net));
    g.story = "Co-working space: unrelated sellers renting desks in one building connect through its network; the "
        + "shared IP range is the building's. No fraud.";
  }

  /** 4-6 honest sellers run by one marketplace agency: its domain, phone, office device and IP; their own accounts. */
  static void agency(Population p) {
    Fakes f = p.f;
    Plans.Group g = p.group("trap_agency", false);
    String domain = Fakes.slug(f.last()) + "-commerce-agency.example";
    String phone = p.nextPhone();
    String device = f.device();
    String ip = f.ipv4();
    for (int i = 0; i < f.between(4, 6); i++) {
      Plans.Seller s = p.seller(g.label(), f.between(120, 900));
      s.email = Fakes.slug(s.businessName) + "@" + domain;
      s.phone = phone;
      s.deviceIds = new ArrayList<>(List.of(device, f.device()));
      s.ips = new ArrayList<>(List.of(ip));
      s.refundRate = 0.01;
      s.chargebackRate = 0.001;
      g.sellers.add(s);
    }
    g.mentions.addAll(List.of("agency domain " + domain, "phone " + phone));
    g.story = "Marketplace agency: one agency manages the listings of several independent sellers from its office, so "
        + "they share its e-mail domain, phone, device and IP; payouts go to each seller's own account. No fraud.";
  }
}
