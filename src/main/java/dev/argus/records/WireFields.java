package dev.argus.records;

import inet.ipaddr.IPAddressString;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Typed reads of one field of a wire record, each throwing a {@link FieldError} that names the field and the reason.
 * Strings are trimmed; an empty string counts as absent. Every string has a length limit.
 */
final class WireFields {

  static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}");
  private static final Pattern COUNTRY = Pattern.compile("[A-Z]{2}");
  private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");
  private static final Pattern DIGITS = Pattern.compile("[0-9]+");
  private static final Pattern TOKEN = Pattern.compile("[a-z0-9][a-z0-9_.-]{0,63}");
  private static final Pattern PHONE = Pattern.compile("[+0-9 ().\\-/]{3,32}");
  static final int MAX_ARRAY = 100;

  private WireFields() {
  }

  static String string(JsonObject json, String field, int max, boolean required) {
    return string(json, field, field, max, required);
  }

  private static String string(JsonObject json, String field, String path, int max, boolean required) {
    Object v = json.getValue(field);
    if (v == null || (v instanceof String s && s.isBlank())) {
      if (required) {
        throw new FieldError(path, "is required");
      }
      return null;
    }
    if (!(v instanceof String s)) {
      throw new FieldError(path, "must be a string");
    }
    String t = s.strip();
    if (t.length() > max) {
      throw new FieldError(path, "is longer than " + max + " characters");
    }
    if (t.indexOf('\0') >= 0) {
      throw new FieldError(path, "must not contain NUL characters");
    }
    return t;
  }

  static String id(JsonObject json, String field, boolean required) {
    String s = string(json, field, 128, required);
    if (s != null && !ID.matcher(s).matches()) {
      throw new FieldError(field, "must match " + ID.pattern());
    }
    return s;
  }

  static String oneOf(JsonObject json, String field, boolean required, List<String> allowed) {
    String s = string(json, field, 64, required);
    if (s != null && !allowed.contains(s)) {
      throw new FieldError(field, "must be one of " + String.join(", ", allowed) + ", got '" + s + "'");
    }
    return s;
  }

  static String token(JsonObject json, String field, boolean required) {
    String s = string(json, field, 64, required);
    if (s != null && !TOKEN.matcher(s).matches()) {
      throw new FieldError(field, "must match " + TOKEN.pattern());
    }
    return s;
  }

  /** An ISO-8601 time with a zone ({@code 2024-05-01T10:00:00Z} or with an offset), as epoch milliseconds. */
  static Long time(JsonObject json, String field, boolean required) {
    String s = string(json, field, 64, required);
    if (s == null) {
      return null;
    }
    try {
      return OffsetDateTime.parse(s).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      throw new FieldError(field, "must be an ISO-8601 time with a zone, e.g. 2024-05-01T10:00:00Z");
    }
  }

  static String country(JsonObject json, String field, String path, boolean required) {
    String s = string(json, field, path, 64, required);
    if (s != null && !COUNTRY.matcher(s).matches()) {
      throw new FieldError(path, "must be an ISO 3166-1 alpha-2 country code in capitals, e.g. DE");
    }
    return s;
  }

  static String currency(JsonObject json, String field, boolean required) {
    String s = string(json, field, 64, required);
    if (s != null && !CURRENCY.matcher(s).matches()) {
      throw new FieldError(field, "must be an ISO 4217 currency code in capitals, e.g. EUR");
    }
    return s;
  }

  /** A positive amount below one billion with at most 4 decimals. */
  static Double amount(JsonObject json, String field, boolean required) {
    Object v = json.getValue(field);
    if (v == null) {
      if (required) {
        throw new FieldError(field, "is required");
      }
      return null;
    }
    if (!(v instanceof Number n)) {
      throw new FieldError(field, "must be a number");
    }
    double d = n.doubleValue();
    if (!(d > 0) || d >= 1e9 || Double.isInfinite(d)) {
      throw new FieldError(field, "must be greater than 0 and less than 1000000000");
    }
    return d;
  }

  static String digits(JsonObject json, String field, int min, int max) {
    String s = string(json, field, max, false);
    if (s != null && (s.length() < min || !DIGITS.matcher(s).matches())) {
      throw new FieldError(field, "must be " + (min == max ? min : min + " to " + max) + " digits");
    }
    return s;
  }

  static String email(JsonObject json, String field, boolean required) {
    String s = IdentifierFolding.email(string(json, field, 254, required));
    if (s != null) {
      int at = s.indexOf('@');
      if (at <= 0 || at != s.lastIndexOf('@') || at == s.length() - 1 || s.chars().anyMatch(Character::isWhitespace)) {
        throw new FieldError(field, "must be an email address");
      }
    }
    return s;
  }

  static String phone(JsonObject json, String field, boolean required) {
    String s = IdentifierFolding.phone(string(json, field, 32, required));
    if (s != null && (!PHONE.matcher(s).matches() || s.chars().filter(Character::isDigit).count() < 3)) {
      throw new FieldError(field, "must be a phone number (digits, spaces, + ( ) . - /)");
    }
    return s;
  }

  static String ip(JsonObject json, String field, boolean required) {
    String s = string(json, field, 64, required);
    if (s != null && !isIp(s)) {
      throw new FieldError(field, "must be an IPv4 or IPv6 address");
    }
    return s;
  }

  static boolean isIp(String s) {
    IPAddressString ip = new IPAddressString(s);
    return ip.isIPAddress() && !ip.isPrefixed();
  }

  static boolean isCidr(String s) {
    IPAddressString ip = new IPAddressString(s);
    return ip.isIPAddress() && ip.isPrefixed();
  }

  /** An array of at most {@link #MAX_ARRAY} non-empty strings (trimmed); {@code ips} entries must be IP addresses. */
  static JsonArray strings(JsonObject json, String field, int maxChars, boolean ips, boolean required) {
    Object v = json.getValue(field);
    if (v == null) {
      if (required) {
        throw new FieldError(field, "is required");
      }
      return null;
    }
    if (!(v instanceof JsonArray array)) {
      throw new FieldError(field, "must be an array of strings");
    }
    if (array.size() > MAX_ARRAY) {
      throw new FieldError(field, "has more than " + MAX_ARRAY + " entries");
    }
    if (required && array.isEmpty()) {
      throw new FieldError(field, "must not be empty");
    }
    JsonArray out = new JsonArray();
    for (int i = 0; i < array.size(); i++) {
      String path = field + "[" + i + "]";
      if (!(array.getValue(i) instanceof String s) || s.isBlank()) {
        throw new FieldError(path, "must be a non-empty string");
      }
      String t = s.strip();
      if (t.length() > maxChars || t.indexOf('\0') >= 0) {
        throw new FieldError(path, "must be at most " + maxChars + " characters without NUL");
      }
      if (ips && !isIp(t)) {
        throw new FieldError(path, "must be an IPv4 or IPv6 address");
      }
      out.add(t);
    }
    return out;
  }

  /** {@code {line1, city, postalCode, country}}, every part optional but the object must not be empty. */
  static JsonObject address(JsonObject json, String field) {
    Object v = json.getValue(field);
    if (v == null) {
      return null;
    }
    if (!(v instanceof JsonObject a)) {
      throw new FieldError(field, "must be an object {line1, city, postalCode, country}");
    }
    for (String key : a.fieldNames()) {
      if (!List.of("line1", "line2", "city", "region", "postalCode", "country").contains(key)) {
        throw new FieldError(field + "." + key, "is not an address field (line1, line2, city, region, postalCode, "
            + "country)");
      }
    }
    JsonObject out = new JsonObject();
    for (String key : List.of("line1", "line2", "city", "region", "postalCode")) {
      String s = string(a, key, field + "." + key, 200, false);
      if (s != null) {
        out.put(key, s);
      }
    }
    String country = country(a, "country", field + ".country", false);
    if (country != null) {
      out.put("country", country);
    }
    if (out.isEmpty()) {
      throw new FieldError(field, "must not be empty");
    }
    return out;
  }
}
