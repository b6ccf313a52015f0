package dev.argus.agent.compose;

import java.util.regex.Pattern;

/**
 * Recognises text in retrieved documents that addresses the assistant (prompt injection): it is data, so the
 * extractive composer never repeats it as an answer sentence and the run logs that it was seen.
 */
public final class InstructionFilter {

  private static final Pattern INSTRUCTION = Pattern.compile(
      "(?i)\\b(ignore|disregard|forget|override)\\b.{0,40}\\b(instruction|prompt|rule|previous|above|system)"
          + "|\\b(system prompt|developer message|jailbreak)\\b"
          + "|\\b(you are now|act as|pretend to be|from now on,? you)\\b"
          + "|\\b(call|invoke|run|use)\\b.{0,20}\\b(the )?(tool|function)s?\\b"
          + "|\\breveal\\b.{0,40}\\b(config|configuration|prompt|secret|key|password|instruction)");

  private InstructionFilter() {
  }

  public static boolean looksLikeInstruction(String text) {
    return text != null && INSTRUCTION.matcher(text).find();
  }
}
