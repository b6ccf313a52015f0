package dev.argus.llm;

/** Token usage of one call (zero when the provider does not report it). */
public record Usage(int promptTokens, int completionTokens) {

  public static final Usage NONE = new Usage(0, 0);

  public Usage plus(Usage other) {
    return new Usage(promptTokens + other.promptTokens, completionTokens + other.completionTokens);
  }

  public int total() {
    return promptTokens + completionTokens;
  }
}
