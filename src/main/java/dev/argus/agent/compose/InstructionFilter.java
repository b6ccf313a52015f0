package dev.argus.agent.compose;

import java.util.regex.Pattern;

/**
 * Recognises text in retrieved documents that addresses the assistant (prompt injection) or carries markup (HTML,
 * scripts, Markdown links and images that a client could render or fetch): it is data, so it is never repeated as
 * answer text or cited as support, and a source that holds it is flagged in the run.
 */
public final class InstructionFilter {

  private static final Pattern INSTRUCTION = Pattern.compile(
      "(?i)\\b(ignore|disregard|forget|override|bypass)\\b.{0,40}\\b(instruction|prompt|rule|previous|above|system|"
          + "evidence|guideline|polic(y|ies)|context)"
          + "|\\b(system prompt|system message|developer message|jailbreak|maintenance mode|safety rules)\\b"
          + "|\\b(you are now|act as|pretend to be|from now on,? you|you must (now )?(answer|say|reply|respond|"
          + "output|print|state|tell|write|mark|call|cite)|answer every (future )?question|respond to every)\\b"
          + "|\\b(call|invoke|run|use|execute)\\b.{0,20}\\b(the )?(tool|function)s?\\b"
          + "|\\breveal\\b.{0,40}\\b(config|configuration|prompt|secret|key|password|instruction)"
          + "|\\b(print|output|show|disclose)\\b.{0,20}\\b(your|the) (system prompt|configuration|api keys?|"
          + "instructions|connection settings)"
          + "|\\b(assistant|ai|chatbot|model|llm|gpt)\\s*[:,]\\s*(please\\s+)?(ignore|disregard|say|answer|mark|tell|"
          + "reply|respond|write|treat|cite|call|stop|do not|don't)"
          + "|\\bto the (ai|assistant|model|chatbot)\\b"
          + "|\\b(mark|treat|classify|label|describe)\\b.{0,40}\\bas (low[- ]risk|trustworthy|verified|safe|legitimate|"
          + "conclusive)"
          + "|\\bcite (this|the) (document|note|text|page)\\b"
          + "|\\b(say|state|claim|tell (the )?(user|analyst)s?) that\\b.{0,60}\\b(unlimited|always|guaranteed|approved|"
          + "verified|trustworthy|safe)\\b"
          + "|\\bdo not (mention|reveal|tell|disclose) (this|these|the) (paragraph|instruction|text|message)");
  private static final Pattern MARKUP = Pattern.compile(
      "(?i)<\\s*/?\\s*(script|iframe|img|a|style|object|embed|svg|form|input|link|meta)\\b|javascript:|on\\w+\\s*=\\s*[\"']"
          + "|!?\\[[^\\]]*\\]\\(\\s*[a-z]+:[^)]*\\)|<https?://");

  private InstructionFilter() {
  }

  /** Text addressed to the assistant, or markup that a client could render or fetch. */
  public static boolean looksLikeInstruction(String text) {
    return text != null && (INSTRUCTION.matcher(text).find() || MARKUP.matcher(text).find());
  }

  /** Why a text was flagged: {@code "instruction"} or {@code "markup"}, {@code null} when it was not. */
  public static String reason(String text) {
    if (text == null) {
      return null;
    }
    if (INSTRUCTION.matcher(text).find()) {
      return "instruction";
    }
    return MARKUP.matcher(text).find() ? "markup" : null;
  }
}
