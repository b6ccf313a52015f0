package dev.argus.agent.tools;

/** A tool failure that is the caller's fault or otherwise not worth retrying (invalid parameters, 4xx, open breaker). */
public final class ToolError extends RuntimeException {

  private final boolean transientFailure;

  public ToolError(String message, boolean transientFailure) {
    super(message);
    this.transientFailure = transientFailure;
  }

  public boolean isTransient() {
    return transientFailure;
  }
}
