package dev.argus.records.world;

import java.util.List;
import java.util.SplittableRandom;

/**
 * Fictitious identity attributes drawn from a seeded random source: names, e-mails on reserved or {@code .test}
 * domains, +1 (NANP) phones in 55x exchanges, addresses, IPs in the shared address space 100.64.0.0/10
 * and the IPv6 documentation prefix 2001:db8::/32, device ids, IBAN-like accounts containing {@code TEST}, tax ids and
 * card numbers. Nothing here identifies a real person, line or account.
 */
final class Fakes {

  static final List<String> FIRST = List.of("Ava", "Ben", "Chloe", "Daniel", "Elena", "Felix", "Grace", "Hugo", "Iris",
      "Jonas", "Karin", "Liam", "Maya", "Noah", "Olivia", "Paul", "Quinn", "Rosa", "Samuel", "Tara", "Umar", "Vera",
      "Wes", "Xenia", "Yusuf", "Zoe", "Amir", "Bianca", "Carlos", "Dana", "Emil", "Farah", "Gustav", "Hana", "Ivan",
      "Julia", "Kenji", "Lena", "Marco", "Nadia", "Oskar", "Priya", "Rafael", "Sofia", "Tomas", "Ulla", "Viktor",
      "Wanda", "Yara", "Zeno");
  static final List<String> LAST = List.of("Adler", "Brennan", "Castillo", "Dubois", "Eriksen", "Fontaine", "Garcia",
      "Hartmann", "Ibrahim", "Jansen", "Kowalski", "Larsen", "Moreau", "Novak", "Okafor", "Petrov", "Quintero",
      "Rossi", "Schmidt", "Tanaka", "Urban", "Vargas", "Weber", "Xu", "Yilmaz", "Zimmermann", "Alvarez", "Becker",
      "Costa", "Demir", "Engel", "Fischer", "Gomez", "Horvat", "Iversen", "Jovanovic", "Keller", "Lindqvist",
      "Marsh", "Nielsen", "Ortega", "Pereira", "Richter", "Santos", "Torres", "Varga", "Wagner", "Young", "Ziegler",
      "Marlowe");
  static final List<String> GOODS = List.of("Books", "Ceramics", "Cycles", "Electronics", "Garden", "Jewelry",
      "Kitchen", "Leather", "Lighting", "Outdoor", "Pet Supply", "Prints", "Sneakers", "Stationery", "Tea", "Textiles",
      "Toys", "Vintage", "Watches", "Wellness", "Audio", "Coffee", "Crafts", "Fitness");
  static final List<String> SUFFIX = List.of("Co", "Store", "Studio", "Works", "Trading", "House", "Goods", "Supply",
      "Market", "Depot");
  static final List<String> STREETS = List.of("Elm Street", "Harbor Road", "Mill Lane", "Station Road", "Oak Avenue",
      "King Street", "Park Lane", "River Road", "Church Street", "High Street", "Maple Drive", "Bridge Street",
      "Cedar Court", "Market Square", "Orchard Way", "Lake View");
  static final List<String> CITIES = List.of("Springfield", "Riverton", "Lakeside", "Fairview", "Greenville",
      "Kingsport", "Westbrook", "Ashford", "Brookfield", "Clearwater", "Dunmore", "Eastwood");
  static final List<String> COUNTRIES = List.of("US", "US", "US", "GB", "GB", "DE", "DE", "FR", "NL", "ES", "IT", "CA");
  static final List<String> FOREIGN = List.of("BR", "NG", "RU", "VN", "ID", "UA", "PH", "RO");
  static final List<String> MAIL = List.of("example.com", "example.org", "example.net", "mail.test", "inbox.test");
  static final List<String> AREAS = List.of("201", "212", "305", "312", "415", "503", "617", "702", "818", "917");
  static final List<String> BIN_PREFIXES = List.of("4", "4", "4", "51", "52", "53", "54", "55", "37", "6011");

  final SplittableRandom rnd;

  Fakes(SplittableRandom rnd) {
    this.rnd = rnd;
  }

  <T> T pick(List<T> list) {
    return list.get(rnd.nextInt(list.size()));
  }

  int between(int lo, int hiInclusive) {
    return lo + rnd.nextInt(hiInclusive - lo + 1);
  }

  boolean chance(double p) {
    return rnd.nextDouble() < p;
  }

  String first() {
    return pick(FIRST);
  }

  String last() {
    return pick(LAST);
  }

  String businessName() {
    return pick(LAST) + " " + pick(GOODS) + " " + pick(SUFFIX);
  }

  static String slug(String s) {
    return s.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
  }

  String email(String first, String last, int n) {
    return (first + "." + last).toLowerCase(java.util.Locale.ROOT) + n + "@" + pick(MAIL);
  }

  /** The {@code n}-th phone number: distinct for the first million ({@code +1 <area> 55x xxxx}). */
  static String phone(long n) {
    return "+1" + AREAS.get((int) (n % 10)) + "55" + (n / 10 % 10) + pad(n / 100 % 10_000, 4);
  }

  Address address(String country) {
    return new Address(between(1, 240) + " " + pick(STREETS), pick(CITIES), pad(rnd.nextInt(100_000), 5), country);
  }

  /** An address in the shared address space 100.64.0.0/10 (RFC 6598). */
  String ipv4() {
    int n = rnd.nextInt(1 << 22);
    return "100." + (64 + (n >> 16)) + "." + ((n >> 8) & 255) + "." + Math.max(1, n & 255);
  }

  /** Another address in the same /24 as {@code ip}. */
  String sameNet24(String ip) {
    return ip.substring(0, ip.lastIndexOf('.') + 1) + between(2, 254);
  }

  String ipv6() {
    return "2001:db8:" + Integer.toHexString(rnd.nextInt(0x10000)) + ":" + Integer.toHexString(rnd.nextInt(0x10000))
        + "::" + Integer.toHexString(1 + rnd.nextInt(0xfffe));
  }

  String device() {
    return "dev-" + Long.toHexString(rnd.nextLong() >>> 16);
  }

  /** An IBAN-like account number holding {@code TEST} (never a valid account). */
  String bankAccount(String country) {
    return country + pad(rnd.nextInt(100), 2) + "TEST" + pad(rnd.nextInt(100_000_000), 8) + pad(rnd.nextInt(1_000_000), 6);
  }

  String taxId() {
    return "TIN-" + pad(rnd.nextInt(1_000_000_000), 9);
  }

  Card card(String country) {
    String prefix = pick(BIN_PREFIXES);
    return new Card(prefix + pad(rnd.nextInt((int) Math.pow(10, 6 - prefix.length())), 6 - prefix.length()),
        pad(rnd.nextInt(10_000), 4), country);
  }

  /** Log-normal amount with the given median, rounded to cents, at least 1. */
  double amount(double median, double sigma) {
    double v = median * Math.exp(sigma * gaussian());
    return Math.max(1.0, Math.round(v * 100) / 100.0);
  }

  double gaussian() {
    // Box-Muller on the seeded source (java.util.Random#nextGaussian would need another generator)
    double u = 1.0 - rnd.nextDouble();
    double v = rnd.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  static String pad(long n, int width) {
    String s = Long.toString(n);
    return s.length() >= width ? s : "0".repeat(width - s.length()) + s;
  }

  record Address(String line1, String city, String postalCode, String country) {
  }

  record Card(String bin, String last4, String country) {
  }
}
