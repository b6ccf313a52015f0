package dev.argus.graph;

import dev.argus.common.Fingerprinter;
import dev.argus.graph.normalize.Domains;
import dev.argus.graph.normalize.Emails;
import dev.argus.graph.normalize.IpAddrs;
import dev.argus.graph.normalize.Phones;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Entity extraction from document text: e-mail addresses, CIDR ranges, IP addresses (v4 and v6), IBAN-like account
 * numbers (fingerprinted at once, never kept raw), phone numbers in international form (libphonenumber's matcher),
 * domain names, and seller, buyer and case ids ({@code S-000123}, {@code B-...}, {@code C-...}). Each kind is matched
 * in turn on text from which the earlier kinds' matches were blanked out, so an e-mail's domain is not also a domain
 * and an IP inside a CIDR range is not also an IP. Candidates are validated by the same normalizers as records, so a
 * mention and a record meet on one node. Precision and recall are measured in {@code TextExtractorTest}. Thread-safe.
 */
public final class TextExtractor {

  /** One entity mentioned in a text. */
  public record Mention(String type, String id) {
  }

  private static final Pattern EMAIL = Pattern.compile("[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}\\.[A-Za-z]{2,63}");
  private static final Pattern CIDR = Pattern.compile("(?<![\\d.])\\d{1,3}(?:\\.\\d{1,3}){3}/\\d{1,2}(?![\\d/])"
      + "|(?<![\\w:])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}/\\d{1,3}(?![\\d/])");
  private static final Pattern IPV4 = Pattern.compile("(?<![\\d.])\\d{1,3}(?:\\.\\d{1,3}){3}(?![\\d.]*\\d)");
  private static final Pattern IPV6 = Pattern.compile("(?<![\\w:])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?![\\w:])");
  private static final Pattern IBAN = Pattern.compile("\\b[A-Z]{2}\\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\\b");
  private static final Pattern DOMAIN = Pattern.compile("(?<![\\w@.-])(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+"
      + "[A-Za-z][A-Za-z0-9-]{1,62}(?![\\w-]|\\.\\w)");
  private static final Pattern SUBJECT_ID = Pattern.compile("\\b([SBC])-\\d{3,12}\\b");
  /** Words that look like domains in prose but are not ("e.g", file names). */
  private static final Set<String> NOT_TLDS = Set.of("txt", "pdf", "doc", "docx", "csv", "json", "jsonl", "md", "html",
      "htm", "java", "png", "jpg", "jpeg", "gif", "zip", "log", "xml", "yaml", "yml", "sql", "exe", "eg", "ie", "etc");

  private final Fingerprinter fingerprinter;

  public TextExtractor(Fingerprinter fingerprinter) {
    this.fingerprinter = fingerprinter;
  }

  /** The distinct entities of {@code text}, in order of kind then appearance. */
  public List<Mention> extract(String text) {
    StringBuilder t = new StringBuilder(text);
    Set<Mention> out = new LinkedHashSet<>();
    take(t, EMAIL, m -> Emails.canonical(m).map(e -> new Mention(Types.EMAIL, EntityIds.of(Types.EMAIL, e))).orElse(null), out);
    take(t, CIDR, m -> IpAddrs.block(m).map(b -> new Mention(Types.IPNET, EntityIds.of(Types.IPNET, b))).orElse(null), out);
    take(t, IPV4, m -> IpAddrs.address(m).map(a -> new Mention(Types.IP, EntityIds.of(Types.IP, a))).orElse(null), out);
    take(t, IPV6, m -> m.chars().filter(c -> c == ':').count() < 2 ? null
        : IpAddrs.address(m).map(a -> new Mention(Types.IP, EntityIds.of(Types.IP, a))).orElse(null), out);
    take(t, IBAN, m -> new Mention(Types.BANK_ACCOUNT, EntityIds.of(Types.BANK_ACCOUNT, fingerprinter.bankAccount(m))),
        out);
    for (String phone : Phones.find(t.toString(), null)) {
      out.add(new Mention(Types.PHONE, EntityIds.of(Types.PHONE, phone)));
    }
    take(t, SUBJECT_ID, m -> new Mention(RecordFacts.typeOfSubject(m), m), out);
    take(t, DOMAIN, m -> {
      String tld = m.substring(m.lastIndexOf('.') + 1).toLowerCase(java.util.Locale.ROOT);
      if (NOT_TLDS.contains(tld) || tld.chars().allMatch(Character::isDigit)) {
        return null;
      }
      return Domains.of(m).map(d -> new Mention(Types.DOMAIN, EntityIds.of(Types.DOMAIN, d))).orElse(null);
    }, out);
    return new ArrayList<>(out);
  }

  private static void take(StringBuilder text, Pattern p, Function<String, Mention> accept, Set<Mention> out) {
    Matcher m = p.matcher(text);
    List<int[]> spans = new ArrayList<>();
    while (m.find()) {
      Mention mention = accept.apply(m.group());
      if (mention != null) {
        out.add(mention);
        spans.add(new int[] {m.start(), m.end()});
      }
    }
    for (int[] s : spans) {
      for (int i = s[0]; i < s[1]; i++) {
        text.setCharAt(i, ' ');
      }
    }
  }
}
