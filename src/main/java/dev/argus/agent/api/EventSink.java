package dev.argus.agent.api;

import dev.argus.runs.RunEvent;

/** Where a {@link RunEventRelay} delivers a run's events, in id order: an SSE response or a collector. */
interface EventSink {

  void write(RunEvent event);

  /** True when the client is not keeping up (the relay pauses its bus consumer until {@link #onDrain}). */
  default boolean full() {
    return false;
  }

  default void onDrain(Runnable action) {
  }

  /** Called once after the terminal event ({@code final}/{@code error}) was written. */
  void end();
}
