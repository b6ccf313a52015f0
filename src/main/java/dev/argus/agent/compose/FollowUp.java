package dev.argus.agent.compose;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites a follow-up question into a standalone one by rules, from the previous turn's subject: the named things
 * it asked about (identifiers, names), or else the topic it asked about ("card testing" in "What is card testing?").
 * <ul>
 *   <li>pronouns ("it", "its", "they", "their", "he", "she", ...) become the subject ("Which device did it use?"
 *   &rarr; "Which device did SLR-10472 use?");</li>
 *   <li>"this/that/the same" + a noun ("this case") become the noun and the subject ("case SLR-10472");</li>
 *   <li>"What about X?", "And X?", "How about X?" take the previous question with X in place of its subject;</li>
 *   <li>anything else, and any question that names its own subject, stays as it is.</li>
 * </ul>
 * Conservative on purpose: a new question inside a conversation must not be bent towards the old subject.
 */
public final class FollowUp {

  /** One earlier turn: the question (its standalone form when known) and the answer (may be empty). */
  public record Turn(String question, String answer) {
  }

  /** The standalone question, the subjects it carries over, and whether it differs from the question asked. */
  public record Rewrite(String standalone, List<String> subjects, boolean rewritten) {
  }

  private static final Pattern ELLIPSIS = Pattern.compile("(?i)^\\s*(?:and|also|so)?\\s*(?:what|how)\\s+about\\s+(.+?)"
      + "\\s*\\??\\s*$|^\\s*and\\s+(.+?)\\s*\\?\\s*$");
  private static final Pattern POSSESSIVE = Pattern.compile("(?i)\\b(its|their|his|her)\\b(?=\\s+\\w)");
  private static final Pattern PRONOUN = Pattern.compile("(?i)\\b(it|they|them|he|she|him)\\b");
  private static final Pattern DEMONSTRATIVE = Pattern.compile("(?i)\\b(this|that|these|those|the same)\\s+(case|seller|"
      + "sellers|account|accounts|attack|policy|ring|network|rule|device|buyer|buyers|customer|person|company|"
      + "incident|pattern|playbook|investigation|merchant|store|shop|appeal|document|one)\\b");
  private static final Pattern TOPIC = Pattern.compile("(?i)^\\s*(?:what|who)\\s+(?:is|are|was|were)\\s+(?:an?\\s+|the\\s+)?"
      + "(.+?)\\s*\\??\\s*$|^\\s*(?:explain|describe|define|tell me about)\\s+(?:an?\\s+|the\\s+)?(.+?)\\s*[.?!]?\\s*$");

  private FollowUp() {
  }

  /** Rewrites each earlier turn against the ones before it, then {@code question} against them all. */
  public static Rewrite rewrite(String question, List<Turn> history) {
    List<Turn> resolved = new ArrayList<>();
    for (Turn t : history) {
      Rewrite r = rewriteOne(t.question(), resolved);
      resolved.add(new Turn(r.standalone(), t.answer()));
    }
    return rewriteOne(question, resolved);
  }

  private static Rewrite rewriteOne(String question, List<Turn> history) {
    String q = question == null ? "" : question.trim();
    if (history.isEmpty() || q.isEmpty()) {
      return new Rewrite(q, List.of(), false);
    }
    Turn prev = history.get(history.size() - 1);
    QuestionAnalysis before = QuestionAnalysis.of(prev.question());
    List<String> subjects = subjects(before);
    QuestionAnalysis now = QuestionAnalysis.of(q);
    Matcher ellipsis = ELLIPSIS.matcher(q);
    if (ellipsis.matches()) {
      String other = (ellipsis.group(1) != null ? ellipsis.group(1) : ellipsis.group(2)).trim();
      if (!subjects.isEmpty() && prev.question().contains(subjects.get(0))) {
        String standalone = prev.question().replace(subjects.get(0), other);
        return new Rewrite(standalone, List.of(other), true);
      }
      String topic = topic(prev.question());
      if (topic != null) {
        return new Rewrite(prev.question().replace(topic, other), List.of(other), true);
      }
      return new Rewrite(q, List.of(), false);
    }
    if (!now.identifiers().isEmpty() || !now.names().isEmpty()) {
      return new Rewrite(q, List.of(), false); // it names its own subject
    }
    String subject = subjects.isEmpty() ? topic(prev.question()) : String.join(" and ", subjects);
    if (subject == null || subject.isBlank()) {
      return new Rewrite(q, List.of(), false);
    }
    String out = q;
    Matcher demonstrative = DEMONSTRATIVE.matcher(out);
    if (demonstrative.find()) {
      String noun = demonstrative.group(2).toLowerCase(Locale.ROOT);
      String replacement = noun.equals("one") ? subject : noun + " " + subject;
      out = out.substring(0, demonstrative.start()) + replacement + out.substring(demonstrative.end());
    } else {
      Matcher possessive = POSSESSIVE.matcher(out);
      if (possessive.find()) {
        out = out.substring(0, possessive.start()) + subject + "'s" + out.substring(possessive.end());
      } else {
        Matcher pronoun = PRONOUN.matcher(out);
        if (pronoun.find()) {
          out = out.substring(0, pronoun.start()) + subject + out.substring(pronoun.end());
        }
      }
    }
    if (out.equals(q)) {
      return new Rewrite(q, List.of(), false);
    }
    return new Rewrite(out, subjects.isEmpty() ? List.of(subject) : subjects, true);
  }

  /** The named things a question asked about: identifiers first, then names. */
  static List<String> subjects(QuestionAnalysis q) {
    List<String> out = new ArrayList<>(q.identifiers());
    out.addAll(q.names());
    return out;
  }

  /** "card testing" in "What is card testing?"; {@code null} when the question has no such topic. */
  static String topic(String question) {
    Matcher m = TOPIC.matcher(question == null ? "" : question);
    if (!m.matches()) {
      return null;
    }
    String t = (m.group(1) != null ? m.group(1) : m.group(2)).trim();
    return t.split("\\s+").length <= 6 ? t : null;
  }
}
