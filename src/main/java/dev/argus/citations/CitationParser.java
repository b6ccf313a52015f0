package dev.argus.citations;

import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Strict parser of the three citation forms. Nothing is guessed: surrounding text, whitespace, unknown kinds,
 * unknown entity types, a negative or leading-zero index and over-long parts are all rejected with a reason, so a
 * malformed citation is excluded rather than silently read as something else.
 */
public final class CitationParser {

  /** The entity types of the graph (contracts: Graph). */
  public static final Set<String> ENTITY_TYPES = Set.of("seller", "buyer", "email", "domain", "phone", "address",
      "ip", "ipnet", "device", "bank_account", "card", "business_name", "tax_id", "case", "document");

  public static final int MAX_CHARS = 512;
  static final int MAX_ID_CHARS = 400;
  static final int MAX_INDEX = 1_000_000;

  private static final Pattern SOURCE = Pattern.compile("\\[source:([a-z][a-z0-9_]{0,63}):(0|[1-9][0-9]{0,6})]");
  private static final Pattern ENTITY = Pattern.compile("\\[entity:([a-z_]{1,32}):([^\\[\\]\\s]+)]");
  private static final Pattern RELATION = Pattern.compile("\\[rel:([^\\[\\]\\s]+)]");

  private CitationParser() {
  }

  public static Citation parse(String text) throws MalformedCitationException {
    if (text == null || text.isEmpty()) {
      throw new MalformedCitationException("empty citation");
    }
    if (text.length() > MAX_CHARS) {
      throw new MalformedCitationException("citation longer than " + MAX_CHARS + " characters");
    }
    if (!text.startsWith("[") || !text.endsWith("]")) {
      throw new MalformedCitationException("a citation is written in square brackets, e.g. [entity:seller:S-1]");
    }
    Matcher m = SOURCE.matcher(text);
    if (m.matches()) {
      int index = Integer.parseInt(m.group(2));
      if (index > MAX_INDEX) {
        throw new MalformedCitationException("evidence index above " + MAX_INDEX);
      }
      return new Citation.Source(m.group(1), index);
    }
    if (text.startsWith("[source:")) {
      throw new MalformedCitationException(
          "source citation must be [source:<tool>:<index>] with a lower-case tool name and a non-negative index");
    }
    m = ENTITY.matcher(text);
    if (m.matches()) {
      String type = m.group(1);
      if (!ENTITY_TYPES.contains(type)) {
        throw new MalformedCitationException("unknown entity type '" + type + "'");
      }
      return new Citation.Entity(type, checkedId(m.group(2)));
    }
    if (text.startsWith("[entity:")) {
      throw new MalformedCitationException("entity citation must be [entity:<type>:<id>] without spaces or brackets");
    }
    m = RELATION.matcher(text);
    if (m.matches()) {
      return new Citation.Relation(checkedId(m.group(1)));
    }
    if (text.startsWith("[rel:")) {
      throw new MalformedCitationException("relation citation must be [rel:<id>] without spaces or brackets");
    }
    throw new MalformedCitationException("unknown citation kind; expected [source:..], [entity:..] or [rel:..]");
  }

  private static String checkedId(String id) throws MalformedCitationException {
    if (id.length() > MAX_ID_CHARS) {
      throw new MalformedCitationException("id longer than " + MAX_ID_CHARS + " characters");
    }
    for (int i = 0; i < id.length(); i++) {
      if (Character.isISOControl(id.charAt(i))) {
        throw new MalformedCitationException("id contains a control character");
      }
    }
    return id;
  }
}
