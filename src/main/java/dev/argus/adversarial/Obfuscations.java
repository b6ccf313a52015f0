package dev.argus.adversarial;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Obfuscated-identifier scenarios: for an original seller of the world, a twin seller whose only link to it is the
 * same e-mail address or phone number written in disguise — every other identifier of the twin is fresh — so the
 * twin is caught only if the disguised identifier resolves to the original's entity. Techniques: {@code homoglyph}
 * (Cyrillic look-alike letters), {@code zero_width} (zero-width space and joiner inside the address),
 * {@code plus_addressing} ({@code local+tag@domain}), {@code spacing} (spaces around {@code @} and dots) and
 * {@code phone_formatting} (the phone number with spaces, parentheses, a dash and a zero-width joiner).
 */
public final class Obfuscations {

  public static final List<String> TECHNIQUES = List.of("homoglyph", "zero_width", "plus_addressing", "spacing",
      "phone_formatting");
  private static final Map<Character, Character> CYRILLIC = Map.of('a', 'а', 'e', 'е', 'o', 'о', 'c', 'с', 'p', 'р',
      'x', 'х', 'y', 'у', 'i', 'і');

  private Obfuscations() {
  }

  /** The disguised form of {@code email} (or of {@code phone} for {@code phone_formatting}). */
  public static String disguise(String technique, String value) {
    return switch (technique) {
      case "homoglyph" -> homoglyphs(value);
      case "zero_width" -> {
        int at = value.indexOf('@');
        yield value.substring(0, 1) + "\u200B" + value.substring(1, at) + "\u200D" + value.substring(at);
      }
      case "plus_addressing" -> value.replaceFirst("@", "+adv" + Math.abs(value.hashCode() % 1000) + "@");
      case "spacing" -> value.replace("@", " @ ").replaceFirst("\\.", " . ");
      case "phone_formatting" -> phone(value);
      default -> throw new IllegalArgumentException("unknown technique " + technique);
    };
  }

  /** Every Latin letter with a Cyrillic twin replaced by it (at most three, so the address still reads the same). */
  static String homoglyphs(String email) {
    StringBuilder out = new StringBuilder(email.length());
    int replaced = 0;
    for (char c : email.toCharArray()) {
      Character twin = CYRILLIC.get(c);
      if (twin != null && replaced < 3) {
        out.append(twin.charValue());
        replaced++;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /** {@code +12015550123} → {@code +1 (201) 555-01‍23}: North-American grouping, a zero-width joiner inside. */
  static String phone(String e164) {
    String digits = e164.replaceAll("[^0-9]", "");
    if (e164.startsWith("+1") && digits.length() == 11) {
      return "+1 (" + digits.substring(1, 4) + ") " + digits.substring(4, 7) + "-" + digits.substring(7, 9) + "\u200D"
          + digits.substring(9);
    }
    return e164.substring(0, 3) + " " + e164.substring(3, 6) + "\u200D " + e164.substring(6);
  }

  /**
   * {@code perTechnique} twins per technique, over originals taken in order from {@code sellers} (those with an e-mail
   * address and a phone number, none of them planted fraud so the twin is the only suspect link); the twins are
   * records to load, the scenarios point at them.
   */
  public static Planted plant(List<JsonObject> sellers, int perTechnique) {
    List<JsonObject> originals = sellers.stream()
        .filter(s -> s.getString("email") != null && s.getString("phone") != null && s.getString("phone").startsWith("+"))
        .toList();
    List<JsonObject> twins = new ArrayList<>();
    List<Scenario> scenarios = new ArrayList<>();
    int n = 0;
    for (String technique : TECHNIQUES) {
      for (int i = 0; i < perTechnique && !originals.isEmpty(); i++) {
        JsonObject original = originals.get(n++ % originals.size());
        String twinId = WorldScenarios.PREFIX + "OBF-" + technique.replace('_', '-') + "-" + (i + 1);
        boolean phone = "phone_formatting".equals(technique);
        String disguised = disguise(technique, phone ? original.getString("phone") : original.getString("email"));
        JsonObject twin = new JsonObject().put("kind", "seller").put("id", twinId)
            .put("createdAt", original.getString("createdAt")).put("legalName", "Adversarial Twin " + (n))
            .put("businessName", "Twin Trading " + technique + " " + (i + 1))
            .put("email", phone ? "twin-" + n + "@twin-" + n + ".adversarial.test" : disguised)
            .put("phone", phone ? disguised : "+1202555" + String.format("%04d", 9000 + n))
            .put("address", new JsonObject().put("line1", n + " Nowhere Lane").put("city", "Elsewhere")
                .put("postalCode", "0" + (1000 + n)).put("country", "US"))
            .put("country", "US").put("status", "active")
            .put("deviceIds", new JsonArray().add("dev-adv-twin-" + n));
        twins.add(twin);
        scenarios.add(new Scenario("obfuscated_identifiers:" + twinId, ScenarioType.OBFUSCATED_IDENTIFIERS, technique,
            twinId, new JsonObject().put("original", original.getString("id")).put("disguised", disguised)
                .put("identifier", phone ? "phone" : "email")));
      }
    }
    return new Planted(twins, scenarios);
  }

  /** Twins to load and their scenarios. */
  public record Planted(List<JsonObject> twins, List<Scenario> scenarios) {
    public String text() {
      StringBuilder b = new StringBuilder();
      twins.forEach(t -> b.append(t.encode()).append('\n'));
      return b.toString();
    }
  }
}
