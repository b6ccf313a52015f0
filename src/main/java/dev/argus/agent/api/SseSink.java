package dev.argus.agent.api;

import dev.argus.http.SseStream;
import dev.argus.runs.RunEvent;

/** Writes run events as SSE frames ({@code id:}, {@code event:} = the event type, {@code data:} = its JSON). */
final class SseSink implements EventSink {

  private final SseStream sse;

  SseSink(SseStream sse) {
    this.sse = sse;
  }

  @Override
  public void write(RunEvent event) {
    sse.send(String.valueOf(event.id()), event.type(), event.data());
  }

  @Override
  public boolean full() {
    return sse.writeQueueFull();
  }

  @Override
  public void onDrain(Runnable action) {
    sse.onDrain(action);
  }

  @Override
  public void end() {
    sse.end();
  }
}
