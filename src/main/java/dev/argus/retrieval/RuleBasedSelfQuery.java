package dev.argus.retrieval;

import dev.argus.knowledge.MetadataCondition;
import dev.argus.knowledge.MetadataCondition.Op;
import io.vertx.core.Future;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Self-query by rules: explicit filter phrases only, so ordinary questions pass through untouched.
 *
 * <table>
 *   <caption>Recognised phrases (case-insensitive)</caption>
 *   <tr><th>phrase</th><th>filter</th></tr>
 *   <tr><td>{@code namespace:X}, {@code in namespace X}, {@code in the X namespace}</td>
 *       <td>namespace X, only when X is a known namespace (otherwise the text stays in the query)</td></tr>
 *   <tr><td>{@code key:value}, {@code key: "two words"} for the configured keys
 *       ({@code retrieval.selfQueryKeys}, default {@code category, region, risk})</td>
 *       <td>{@code key = value} (as typed)</td></tr>
 *   <tr><td>{@code in 2023}, {@code during 2023-05}, {@code year:2023}, {@code date:2023-05-01}</td>
 *       <td>{@code date >= start} and {@code date < end} of that year, month or day</td></tr>
 *   <tr><td>{@code since D}, {@code from D}, {@code starting D}</td><td>{@code date >= start(D)}</td></tr>
 *   <tr><td>{@code after D}</td><td>{@code date >= end(D)} (the day after the period)</td></tr>
 *   <tr><td>{@code before D}, {@code prior to D}</td><td>{@code date < start(D)}</td></tr>
 *   <tr><td>{@code until D}, {@code till D}, {@code up to D}</td><td>{@code date < end(D)} (D included)</td></tr>
 *   <tr><td>{@code between D1 and D2}, {@code from D1 to D2}, {@code from D1-D2}</td>
 *       <td>{@code date >= start(D1)} and {@code date < end(D2)} (both included; swapped if reversed)</td></tr>
 * </table>
 * D is a year (1900–2100), {@code yyyy-MM} or {@code yyyy-MM-dd}. Dates filter on the metadata key
 * {@code retrieval.selfQueryDateKey} (default {@code date}, the ISO date of the sample knowledge base's front
 * matter); bounds are ISO {@code yyyy-MM-dd} strings, which compare correctly with ISO dates and date-times.
 * If removing the phrases would leave nothing to search for, the original query is searched.
 */
public final class RuleBasedSelfQuery implements SelfQuery {

  private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
  private static final String NAME = "(?:\"([^\"]{1,128})\"|([\\w.-]{1,128}))";
  /** A year, year-month or date; 3 groups. Not followed by a letter or digit. */
  private static final String D = "(\\d{4})(?:-(\\d{2})(?:-(\\d{2}))?)?(?![\\p{L}\\p{N}])";

  private static final Pattern NS_KV = Pattern.compile("(?<![\\w.-])namespace\\s*[:=]\\s*" + NAME, FLAGS);
  private static final Pattern NS_BEFORE = Pattern.compile(
      "\\b(?:in|within|inside|from)\\s+(?:the\\s+)?namespace\\s+" + NAME, FLAGS);
  private static final Pattern NS_AFTER = Pattern.compile(
      "\\b(?:in|within|inside|from)\\s+the\\s+" + NAME + "\\s+namespace\\b", FLAGS);
  private static final Pattern BETWEEN = Pattern.compile("\\bbetween\\s+" + D + "\\s+(?:and|to)\\s+" + D, FLAGS);
  private static final Pattern FROM_TO = Pattern.compile(
      "\\bfrom\\s+" + D + "\\s*(?:to|until|till|through|-|–)\\s*" + D, FLAGS);
  private static final Pattern SINCE = Pattern.compile(
      "\\b(since|after|from|starting(?:\\s+(?:in|from))?)\\s+" + D, FLAGS);
  private static final Pattern BEFORE = Pattern.compile(
      "\\b(before|prior\\s+to|until|till|up\\s+to)\\s+" + D, FLAGS);
  private static final Pattern IN = Pattern.compile("\\b(?:in|during)\\s+(?:the\\s+year\\s+)?" + D, FLAGS);

  private final String dateKey;
  private final Pattern dateKv;
  private final Pattern keyValue;
  private final List<String> keys;

  /**
   * @param keys    metadata keys recognised as {@code key:value} (identifiers; e.g. category, region, risk)
   * @param dateKey the metadata key holding ISO dates that date phrases filter on
   */
  public RuleBasedSelfQuery(List<String> keys, String dateKey) {
    for (String k : keys) {
      if (!MetadataCondition.KEY.matcher(k).matches()) {
        throw new IllegalArgumentException("invalid self-query key: " + k);
      }
    }
    if (!MetadataCondition.KEY.matcher(dateKey).matches()) {
      throw new IllegalArgumentException("invalid self-query date key: " + dateKey);
    }
    this.dateKey = dateKey;
    this.dateKv = Pattern.compile("(?<![\\w.-])(?:year|date|" + Pattern.quote(dateKey) + ")\\s*[:=]\\s*" + D, FLAGS);
    List<String> others = keys.stream().filter(k -> !k.equalsIgnoreCase(dateKey)).toList();
    this.keys = others;
    this.keyValue = others.isEmpty() ? null : Pattern.compile("(?<![\\w.-])("
        + others.stream().map(Pattern::quote).collect(Collectors.joining("|"))
        + ")\\s*[:=]\\s*(?:\"([^\"]{1,512})\"|([\\p{L}\\p{N}_.@/+-]{1,512}))", FLAGS);
  }

  @Override
  public Future<SelfQueryResult> extract(String query, Set<String> knownNamespaces) {
    return Future.succeededFuture(apply(query, knownNamespaces));
  }

  /** The synchronous rule pass (the rules are pure string work). */
  public SelfQueryResult apply(String query, Set<String> knownNamespaces) {
    List<InferredFilter> found = new ArrayList<>();
    String text = query;
    Function<Matcher, List<InferredFilter>> namespace = m -> {
      String name = known(m.group(1) != null ? m.group(1) : m.group(2), knownNamespaces);
      return name == null ? null : List.of(InferredFilter.namespace(phrase(m), name));
    };
    text = replace(text, NS_KV, namespace, found);
    text = replace(text, NS_BEFORE, namespace, found);
    text = replace(text, NS_AFTER, namespace, found);
    text = replace(text, dateKv, m -> range(m, span(m, 1), span(m, 1)), found);
    if (keyValue != null) {
      text = replace(text, keyValue, m -> List.of(InferredFilter.condition(phrase(m), new MetadataCondition(
          canonicalKey(m.group(1)), Op.EQ, List.of(m.group(2) != null ? m.group(2).strip() : m.group(3))))), found);
    }
    text = replace(text, BETWEEN, m -> between(m), found);
    text = replace(text, FROM_TO, m -> between(m), found);
    text = replace(text, SINCE, m -> {
      Span s = span(m, 2);
      if (s == null) {
        return null;
      }
      boolean after = m.group(1).toLowerCase(Locale.ROOT).equals("after");
      return List.of(condition(m, Op.GTE, after ? s.end : s.start));
    }, found);
    text = replace(text, BEFORE, m -> {
      Span s = span(m, 2);
      if (s == null) {
        return null;
      }
      String word = m.group(1).toLowerCase(Locale.ROOT);
      boolean inclusive = word.startsWith("until") || word.startsWith("till") || word.startsWith("up");
      return List.of(condition(m, Op.LT, inclusive ? s.end : s.start));
    }, found);
    text = replace(text, IN, m -> range(m, span(m, 1), span(m, 1)), found);
    if (found.isEmpty()) {
      return SelfQueryResult.none(query);
    }
    String cleaned = clean(text);
    if (!containsWord(cleaned)) {
      cleaned = query.strip();
    }
    return new SelfQueryResult(cleaned, found);
  }

  private List<InferredFilter> between(Matcher m) {
    Span a = span(m, 1);
    Span b = span(m, 4);
    if (a == null || b == null) {
      return null;
    }
    if (a.start.isAfter(b.start)) {
      Span t = a;
      a = b;
      b = t;
    }
    return range(m, a, b);
  }

  private List<InferredFilter> range(Matcher m, Span from, Span to) {
    if (from == null || to == null) {
      return null;
    }
    return List.of(condition(m, Op.GTE, from.start), condition(m, Op.LT, to.end));
  }

  private InferredFilter condition(Matcher m, Op op, LocalDate bound) {
    return InferredFilter.condition(phrase(m), new MetadataCondition(dateKey, op, List.of(bound.toString())));
  }

  /** A year, month or day and the first day after it; {@code null} when not a plausible date. */
  private record Span(LocalDate start, LocalDate end) {
  }

  private static Span span(Matcher m, int firstGroup) {
    try {
      int year = Integer.parseInt(m.group(firstGroup));
      if (year < 1900 || year > 2100) {
        return null;
      }
      String month = m.group(firstGroup + 1);
      String day = m.group(firstGroup + 2);
      if (month == null) {
        LocalDate start = LocalDate.of(year, 1, 1);
        return new Span(start, start.plusYears(1));
      }
      if (day == null) {
        LocalDate start = LocalDate.of(year, Integer.parseInt(month), 1);
        return new Span(start, start.plusMonths(1));
      }
      LocalDate start = LocalDate.of(year, Integer.parseInt(month), Integer.parseInt(day));
      return new Span(start, start.plusDays(1));
    } catch (DateTimeException | NumberFormatException e) {
      return null;
    }
  }

  /**
   * Replaces each match for which {@code rule} returns filters with a space, collecting the filters; matches
   * for which it returns {@code null} stay in the text.
   */
  private static String replace(String text, Pattern pattern, Function<Matcher, List<InferredFilter>> rule,
                                List<InferredFilter> found) {
    Matcher m = pattern.matcher(text);
    StringBuilder out = new StringBuilder();
    int last = 0;
    while (m.find()) {
      List<InferredFilter> filters = rule.apply(m);
      if (filters == null) {
        continue;
      }
      found.addAll(filters);
      out.append(text, last, m.start()).append(' ');
      last = m.end();
    }
    if (last == 0) {
      return text;
    }
    return out.append(text, last, text.length()).toString();
  }

  private static String phrase(Matcher m) {
    return m.group().strip();
  }

  private static String known(String name, Set<String> knownNamespaces) {
    for (String k : knownNamespaces) {
      if (k.equalsIgnoreCase(name)) {
        return k;
      }
    }
    return null;
  }

  /** The configured spelling of a key typed in any case. */
  private String canonicalKey(String typed) {
    return keys.stream().filter(k -> k.equalsIgnoreCase(typed)).findFirst().orElse(typed);
  }

  /** Collapses whitespace and trims separators and dangling conjunctions left where phrases were removed. */
  static String clean(String text) {
    String s = text.replaceAll("\\s+", " ").replaceAll(" ([,;.?!])", "$1").strip();
    String previous;
    do {
      previous = s;
      s = s.replaceAll("^[,;:\\-–]+\\s*", "").replaceAll("\\s*[,;:\\-–]+$", "")
          .replaceAll("(?i)^(?:and|or)\\s+", "").replaceAll("(?i)\\s+(?:and|or|in|from)$", "").strip();
    } while (!s.equals(previous));
    return s;
  }

  private static boolean containsWord(String s) {
    return s.codePoints().anyMatch(Character::isLetterOrDigit);
  }
}
