package dev.argus.provider;

/**
 * Turns one streamed answer's server-sent events into a result. A new decoder is used for every attempt. A failure
 * the provider reports inside the stream is thrown as a {@link ProviderException}; anything else thrown counts as
 * an unreadable event.
 */
public interface EventDecoder<R> {

  /** Handles one event ({@code type} may be null). */
  void onEvent(String type, String data);

  /** True once the provider signalled the end of the answer. */
  boolean finished();

  /** True if the stream may end without an explicit end marker (the answer is complete anyway). */
  boolean completeEnough();

  R result();
}
