package dev.argus.llm;

import java.util.List;

/** The model's answer still did not match the JSON schema after the one repair request. */
public class StructuredOutputException extends LlmUnavailableException {

  private final List<String> errors;
  private final String output;

  public StructuredOutputException(String message, List<String> errors, String output) {
    super(message);
    this.errors = List.copyOf(errors);
    this.output = output;
  }

  /** The validation errors of the last answer. */
  public List<String> errors() {
    return errors;
  }

  /** The last answer, as the model wrote it. */
  public String output() {
    return output;
  }
}
