package dev.argus.agent.compose;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a question asks, read by rules: the named things an answer must be about (identifiers, periods, places,
 * names), the kind of answer it wants ({@link AnswerType}), the attribute it asks for (its focus, e.g. "interest
 * rate" in "What interest rate is paid ...?") and its other key terms. Pure and cheap; used by the composer to pick
 * sentences and by the answerability gate to decide whether the evidence answers this question at all.
 */
public record QuestionAnalysis(String question, Set<String> identifiers, Set<String> periods, Set<String> places,
                               Set<String> names, AnswerType type, Set<String> focus, Set<String> keyTerms) {

  /** The kind of answer a question wants, and how to recognise a sentence that gives it. */
  public enum AnswerType {
    /** A quantity: a number, amount, ratio or threshold. */
    NUMBER,
    /** A length of time or a frequency. */
    DURATION,
    /** Steps to take. */
    PROCEDURE,
    /** What was decided or came out of a case. */
    OUTCOME,
    /** A person's or organisation's name. */
    NAME,
    /** An identifier: a device, phone, account, address, code. */
    IDENTIFIER,
    /** A calendar date. */
    DATE,
    /** Anything else (definitions, conditions, explanations). */
    OTHER
  }

  private static final Pattern ID = Pattern.compile(
      "[\\w.+-]+@[\\w-]+\\.[\\w.-]+|\\d{1,3}(?:\\.\\d{1,3}){3}(?:/\\d{1,2})?|\\+?\\d[\\d -]{6,}\\d"
          + "|\\b(?=[A-Za-z0-9-]*\\d)(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*\\b|\\b\\d{5,}\\b");
  /** A year standing alone (not part of an identifier such as CT-2025-09). */
  private static final Pattern YEAR = Pattern.compile("(?<![\\w-])(19|20)\\d{2}(?![\\w-])");
  private static final String MONTHS = "january|february|march|april|may|june|july|august|september|october"
      + "|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec";
  private static final Pattern QUARTER = Pattern.compile(
      "(?i)\\b(?:q([1-4])|(first|second|third|fourth) quarter)(?: of)?\\s+((?:19|20)\\d{2})\\b");
  private static final Pattern HALF = Pattern.compile("(?i)\\bh([12])\\s+((?:19|20)\\d{2})\\b");
  private static final Pattern MONTH_YEAR = Pattern.compile("(?i)\\b(" + MONTHS + ")\\.?\\s+((?:19|20)\\d{2})\\b");
  private static final Pattern CAPITALISED = Pattern.compile(
      "\\b[A-Z][a-z]+(?:[ -](?:of |de |van |von |la )?[A-Z][a-z]+)*\\b");
  /** Every country name Java knows, in English, lower case; plus common short forms. */
  private static final Set<String> COUNTRIES = countries();

  private static final Pattern PROCEDURE = Pattern.compile("(?i)\\b(what (should|must|do|can) (we|i|you|an? \\w+|the \\w+)"
      + "( \\w+)? do|how (do|should|can|must|would) (we|i|you|an? \\w+|the \\w+)|what (are the )?(steps|actions|measures)"
      + "|how to|what to do|which (steps|actions|measures)|what happens (when|if|after))\\b");
  private static final Pattern OUTCOME = Pattern.compile("(?i)\\b(what was (decided|concluded|done)|(what|which) (was|were) the "
      + "(outcome|decision|result|verdict|conclusion)s?|how (was|were) .{1,60} (resolved|decided|closed|handled|settled)"
      + "|outcome of|decision (on|in|about))\\b");
  private static final Pattern DURATION = Pattern.compile("(?i)\\b(how (long|quickly|fast|soon|often|frequently)|within "
      + "(what|how much) time|what (is|are) the (deadline|time limit|service level|sla|period|waiting time|holding period)s?"
      + "|by when|after how (long|many days))\\b");
  private static final Pattern NUMBER = Pattern.compile("(?i)\\b(how (many|much)|what (percentage|percent|share|ratio|rate|"
      + "amount|number|threshold|limit|score|fee|sum|total|proportion|level)|(which|what) [\\w -]{0,40}(ratio|amount|"
      + "threshold|limit|score|scores|percentage|rate|fee|sum|total)\\b)");
  private static final Pattern NAME = Pattern.compile("(?i)\\b(what is the name|what are the names|who (is|was|are|were) "
      + "(our|the|their|its)|name of (our|the))\\b");
  private static final Pattern DATE = Pattern.compile("(?i)\\b(date of birth|when was .{1,60} born|on (what|which) date|"
      + "what date|birth ?date|born)\\b");
  private static final Pattern IDENTIFIER = Pattern.compile("(?i)\\b(which|what) (\\w+ ){0,2}(device|fingerprint|phone|"
      + "number|ip|address|e-?mail|account|iban|bin|code|coupon|card|id|identifier|domain)s?\\b");

  /** The span a question asks about: after "what/which" up to the verb, or the X of "what is the X of ...". */
  private static final Pattern FOCUS_WH = Pattern.compile("(?i)^\\s*(?:and |so )?(?:what|which)\\s+((?:[\\w-]+\\s+){0,3}?)"
      + "(?:is|are|was|were|did|does|do|has|have|had|can|could|must|should|will|would|triggers?|leads?|applies|"
      + "apply|counts?|causes?|makes?|means?)\\b");
  private static final Pattern FOCUS_OF = Pattern.compile("(?i)^\\s*(?:and |so )?(?:what|which|who)\\s+(?:is|are|was|were)"
      + "\\s+(?:the|our|their|its|a|an)\\s+((?:[\\w-]+\\s+){0,3}?)(?:of|for|in|on|to|at|that|when|if|under|after|before)\\b");
  private static final Pattern FOCUS_HOW = Pattern.compile("(?i)^\\s*(?:and |so )?how (?:many|much)\\s+((?:[\\w-]+\\s+){0,2}?)"
      + "(?:is|are|was|were|did|does|do|has|have|had|can|could|must|should|will|would|in|of|for|to|at)\\b");
  /** Words that only say how a question is asked, never what it is about. */
  private static final Set<String> GENERIC = Set.of("happen", "use", "used", "take", "taken", "make", "get", "go",
      "want", "need", "find", "found", "mean", "thing", "way", "kind", "type", "long", "quick", "quickly", "fast",
      "soon", "often", "many", "much", "new", "usual", "usually", "typical", "exactly", "current", "currently", "ever",
      "exist", "say", "said", "happened", "doe", "done", "number", "amount", "total", "certain", "specific", "case",
      "given", "like", "one", "two", "first", "last", "still");
  /** Quantity words that name no attribute of their own ("how much money", "how much time"). */
  private static final Set<String> GENERIC_FOCUS = Set.of("money", "time", "cash", "fund", "amount", "sum");

  public static QuestionAnalysis of(String question) {
    String q = question == null ? "" : question.trim();
    Set<String> periods = new LinkedHashSet<>();
    String rest = q;
    for (Pattern p : List.of(QUARTER, HALF, MONTH_YEAR)) {
      Matcher m = p.matcher(rest);
      while (m.find()) {
        periods.add(m.group().trim());
      }
      rest = p.matcher(rest).replaceAll(" ");
    }
    Matcher y = YEAR.matcher(rest);
    while (y.find()) {
      periods.add(y.group());
    }
    rest = YEAR.matcher(rest).replaceAll(" ");
    Set<String> ids = new LinkedHashSet<>();
    Matcher m = ID.matcher(rest);
    while (m.find()) {
      String id = m.group().trim();
      if (id.matches("[A-Za-z]?\\d") || id.matches("\\d+(st|nd|rd|th)")) {
        continue; // "tier 2", "S1" are kept below only when they look like codes; ordinals are not ids
      }
      ids.add(id);
    }
    Matcher code = Pattern.compile("\\b[A-Z]\\d\\b").matcher(rest); // S1, P2: short codes written in capitals
    while (code.find()) {
      ids.add(code.group());
    }
    Set<String> places = new LinkedHashSet<>();
    Set<String> names = new LinkedHashSet<>();
    Matcher c = CAPITALISED.matcher(q);
    while (c.find()) {
      String run = c.group();
      if (c.start() == 0 || q.substring(0, c.start()).isBlank()) {
        // the question's first word is capitalised anyway; what follows it may still be a name
        int space = run.indexOf(' ');
        if (space < 0) {
          continue;
        }
        run = run.substring(space + 1);
      }
      String lower = run.toLowerCase(Locale.ROOT);
      if (COUNTRIES.contains(lower)) {
        places.add(run);
      } else if (!Text.isStopWord(lower)) {
        for (String part : run.split(" ")) {
          if (COUNTRIES.contains(part.toLowerCase(Locale.ROOT))) {
            places.add(part);
          }
        }
        names.add(run);
      }
    }
    for (String word : q.split("[^\\p{L}.]+")) {
      String lower = word.toLowerCase(Locale.ROOT).replaceAll("\\.$", "");
      if (!lower.isEmpty() && (lower.equals("uk") || lower.equals("us") && word.equals("US") || lower.equals("usa")
          || lower.equals("eu") && word.equals("EU") || lower.equals("u.s") || lower.equals("u.k"))) {
        places.add(word);
      }
    }
    names.removeAll(places);
    AnswerType type = typeOf(q);
    Set<String> focus = new LinkedHashSet<>();
    for (Pattern p : List.of(FOCUS_OF, FOCUS_WH, FOCUS_HOW)) {
      Matcher f = p.matcher(q);
      if (f.find() && !f.group(1).isBlank()) {
        for (String t : Text.contentTokens(f.group(1))) {
          if (!GENERIC.contains(t) && !GENERIC_FOCUS.contains(t)) {
            focus.add(t);
          }
        }
        if (!focus.isEmpty()) {
          break;
        }
      }
    }
    Set<String> entityTokens = new TreeSet<>();
    for (String e : union(ids, periods, places, names)) {
      entityTokens.addAll(Text.contentTokens(e));
    }
    Set<String> key = new LinkedHashSet<>();
    for (String t : Text.contentTokens(q)) {
      if (!GENERIC.contains(t) && !entityTokens.contains(t) && !typeWord(type, t)) {
        key.add(t);
      }
    }
    return new QuestionAnalysis(q, ids, periods, places, names, type, focus, key);
  }

  /** Words that only say which kind of answer is wanted (matched by {@link #answeredBy}, not as key terms). */
  private static boolean typeWord(AnswerType type, String token) {
    return switch (type) {
      case OUTCOME -> token.startsWith("decid") || token.startsWith("decision") || token.startsWith("outcome")
          || token.startsWith("result") || token.startsWith("conclu") || token.equals("verdict");
      case PROCEDURE -> token.equals("step") || token.equals("action") || token.equals("measure");
      case NAME -> token.equals("name");
      default -> false;
    };
  }

  private static final Pattern OUTCOME_LABEL = Pattern.compile("(?i)\\b(outcome|decision|decided|verdict|result)s?\\b");

  /**
   * How directly a sentence (with its section heading) gives the kind of answer: 1 for an outcome line or a sentence
   * of a decision section when an outcome is asked, 0 otherwise.
   */
  public double typeStrength(String sentence, String section) {
    return type == AnswerType.OUTCOME && (OUTCOME_LABEL.matcher(sentence).find()
        || OUTCOME_LABEL.matcher(section == null ? "" : section).find()) ? 1 : 0;
  }

  /** This question's named things with a part's type, focus and key terms (a part that names nothing itself). */
  QuestionAnalysis withType(QuestionAnalysis part) {
    return new QuestionAnalysis(part.question, identifiers, periods, places, names, part.type, part.focus,
        part.keyTerms);
  }

  /** A question that asks two things ("Which code ..., and how many ...?"), as its parts; else just itself. */
  public List<QuestionAnalysis> parts() {
    String[] split = PARTS.split(question);
    if (split.length < 2) {
      return List.of(this);
    }
    List<QuestionAnalysis> out = new java.util.ArrayList<>();
    for (String part : split) {
      if (!part.isBlank()) {
        out.add(of(part.trim()));
      }
    }
    return out.size() < 2 ? List.of(this) : out;
  }

  private static final Pattern PARTS = Pattern.compile(
      "(?i)(?:,\\s*|\\s+)(?:and|also)\\s+(?=(?:how|what|which|who|when|where|why)\\b)|[?;]\\s+(?=(?:and\\s+)?(?:how|what|which|who|when|where|why)\\b)");

  static AnswerType typeOf(String q) {
    if (DATE.matcher(q).find()) {
      return AnswerType.DATE;
    }
    if (PROCEDURE.matcher(q).find()) {
      return AnswerType.PROCEDURE;
    }
    if (OUTCOME.matcher(q).find()) {
      return AnswerType.OUTCOME;
    }
    if (DURATION.matcher(q).find()) {
      return AnswerType.DURATION;
    }
    if (NAME.matcher(q).find() && !q.toLowerCase(Locale.ROOT).matches(".*\\bwho (is|are) (the )?(responsible|in charge).*")) {
      return AnswerType.NAME;
    }
    if (NUMBER.matcher(q).find()) {
      return AnswerType.NUMBER;
    }
    if (IDENTIFIER.matcher(q).find()) {
      return AnswerType.IDENTIFIER;
    }
    return AnswerType.OTHER;
  }

  private static final Pattern HAS_NUMBER = Pattern.compile("(?i)\\d|\\b(one|two|three|four|five|six|seven|eight|nine|"
      + "ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety|hundred|thousand|million|half|twice|double"
      + "|triple|dozen)\\b");
  private static final Pattern HAS_DURATION = Pattern.compile("(?i)(\\d+([.,]\\d+)?|\\b(a|an|one|two|three|four|five|"
      + "six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety))[\\s-]*(business |calendar |"
      + "working )?(seconds?|minutes?|hours?|days?|weeks?|months?|years?|quarters?)\\b|\\b(immediately|same day|next "
      + "business day|around the clock|daily|weekly|monthly|yearly|annually|hourly|real time|real-time)\\b");
  private static final Pattern HAS_DATE = Pattern.compile("(?i)\\b\\d{4}-\\d{2}(-\\d{2})?\\b|\\b(" + MONTHS
      + ")\\.?\\s+(\\d{1,2},?\\s+)?(19|20)\\d{2}\\b|\\b\\d{1,2}\\s+(" + MONTHS + ")\\s+(19|20)\\d{2}\\b|\\bborn in "
      + "(19|20)\\d{2}\\b");
  private static final Pattern HAS_OUTCOME = Pattern.compile("(?i)\\b(outcome|decided|decision|closed|declined|cleared|"
      + "approved|rejected|retained|frozen|filed|denied|won|lost|contained|recovered|suspended|terminated|maintained|"
      + "escalated|refused|blocked|referred|removed|reinstated|onboarded|dismissed|upheld|released|held|kept|"
      + "restricted|reported|discounted|confirmed)\\b");
  private static final Pattern HAS_MODAL = Pattern.compile("(?i)\\b(must|should|needs? to|is required to|are required "
      + "to|has to|have to)\\s+(be\\s+)?\\w+");
  private static final Pattern PROPER_NAME = Pattern.compile("(?<=\\S\\s)[A-Z][a-z]+(?:\\s+[A-Z][a-z]+)+");

  /**
   * Whether a sentence gives the kind of answer asked for ({@code step}: the sentence reads as a step to take). A
   * number for "how many", a time for "how long", an identifier for "which device", a step or rule for "what should
   * we do", a decision for "what was decided", a name for "what is the name", a date for "date of birth".
   */
  public boolean answeredBy(String sentence, boolean step) {
    return switch (type) {
      case NUMBER -> HAS_NUMBER.matcher(sentence).find();
      case DURATION -> HAS_DURATION.matcher(sentence).find();
      case IDENTIFIER -> hasIdentifier(sentence);
      case DATE -> HAS_DATE.matcher(sentence).find();
      case NAME -> PROPER_NAME.matcher(sentence).find();
      case OUTCOME -> HAS_OUTCOME.matcher(sentence).find();
      case PROCEDURE -> step || HAS_MODAL.matcher(sentence).find();
      case OTHER -> true;
    };
  }

  static boolean hasIdentifier(String sentence) {
    Matcher m = ID.matcher(sentence);
    while (m.find()) {
      String id = m.group().trim();
      if (!id.matches("\\d{1,4}([.,]\\d+)?") && !YEAR.matcher(id).matches() && !id.matches("\\d+(st|nd|rd|th)")) {
        return true;
      }
    }
    return Pattern.compile("\\b[A-Z][A-Z0-9]{3,}\\d+\\b").matcher(sentence).find();
  }

  /** Whether a text mentions a named thing of this question (an identifier, period, place or name). */
  public static boolean mentions(String text, String entity) {
    if (text == null || entity == null || entity.isBlank()) {
      return false;
    }
    Matcher quarter = QUARTER.matcher(entity);
    if (quarter.matches()) {
      int n = quarter.group(1) != null ? Integer.parseInt(quarter.group(1))
          : List.of("first", "second", "third", "fourth").indexOf(quarter.group(2).toLowerCase(Locale.ROOT)) + 1;
      String year = quarter.group(3);
      String word = List.of("first", "second", "third", "fourth").get(n - 1);
      return Pattern.compile("(?i)\\bq" + n + "\\s*(of\\s+)?" + year + "\\b|\\b" + word + " quarter (of )?" + year + "\\b")
          .matcher(text).find();
    }
    Matcher half = HALF.matcher(entity);
    if (half.matches()) {
      String word = "1".equals(half.group(1)) ? "first" : "second";
      return Pattern.compile("(?i)\\bh" + half.group(1) + "\\s*" + half.group(2) + "\\b|\\b" + word + " half (of )?"
          + half.group(2) + "\\b").matcher(text).find();
    }
    Matcher month = MONTH_YEAR.matcher(entity);
    if (month.matches()) {
      String m3 = month.group(1).toLowerCase(Locale.ROOT).substring(0, 3);
      int index = List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
          .indexOf(m3) + 1;
      String year = month.group(2);
      return Pattern.compile("(?i)\\b" + m3 + "[a-z]*\\.?\\s+(\\d{1,2},?\\s+)?" + year + "\\b|\\b" + year + "-"
          + String.format(Locale.ROOT, "%02d", index) + "\\b").matcher(text).find();
    }
    String quoted = Pattern.quote(entity.trim()).replace(" ", "\\E\\s+\\Q");
    return Pattern.compile("(?i)(?<![\\p{L}\\p{N}-])" + quoted + "(?![\\p{L}\\p{N}]|-\\p{N}|\\.\\p{N})").matcher(text).find();
  }

  /** Identifiers, periods, places and names: what an answer must be about. */
  public Set<String> entities() {
    return union(identifiers, periods, places, names);
  }

  @SafeVarargs
  private static Set<String> union(Set<String>... sets) {
    Set<String> out = new LinkedHashSet<>();
    for (Set<String> s : sets) {
      out.addAll(s);
    }
    return out;
  }

  private static Set<String> countries() {
    Set<String> out = new java.util.HashSet<>();
    for (String code : Locale.getISOCountries()) {
      String name = new Locale("", code).getDisplayCountry(Locale.ENGLISH).toLowerCase(Locale.ROOT);
      if (!name.isBlank()) {
        out.add(name);
        int paren = name.indexOf(" (");
        if (paren > 0) {
          out.add(name.substring(0, paren));
        }
        int amp = name.indexOf(" & ");
        if (amp > 0) {
          out.add(name.replace(" & ", " and "));
        }
      }
    }
    out.addAll(List.of("england", "scotland", "wales", "northern ireland", "america", "britain", "great britain",
        "holland", "czech republic", "south korea", "north korea", "russia", "vietnam", "ivory coast", "taiwan"));
    return Set.copyOf(out);
  }
}
