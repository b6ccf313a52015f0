package dev.argus.llm;

import java.util.function.Consumer;

/** Turns one provider's server-sent events into text deltas and, at the end, a {@link ChatResult}. */
interface StreamDecoder {

  /** Handles one event ({@code type} may be null); text deltas go to {@code onToken}. */
  void onEvent(String type, String data, Consumer<String> onToken);

  /** True once the provider signalled the end of the answer. */
  boolean finished();

  /** True if the stream may end without an explicit end marker (the answer is complete anyway). */
  boolean completeEnough();

  ChatResult result();
}
