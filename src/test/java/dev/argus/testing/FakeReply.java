package dev.argus.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One scripted answer of a fake provider ({@link FakeHttpServer}: {@link FakeOpenAiServer}, {@link FakeAnthropicServer},
 * {@link FakeEmbeddingServer}), independent of the wire protocol: the server renders it as a plain JSON answer or as
 * a server-sent-event stream, depending on the request's {@code stream} flag. Examples:
 * <pre>
 * FakeReply.text("Hello world")                                  // "Hello", " world" when streamed
 * FakeReply.tokens("Hel", "lo").usage(12, 2)                      // exact stream chunks, usage
 * FakeReply.toolCall("call_1", "knowledge_search", "{\"qu", "ery\":\"x\"}")  // arguments in fragments
 * FakeReply.error(429).header("Retry-After", "1")
 * FakeReply.text("late").delay(500)                               // answer after 500 ms
 * FakeReply.text("a b c").tokenDelay(20).disconnectAfter(2)      // drop the connection mid-stream
 * FakeReply.streamError("overloaded_error", "busy")               // an error event inside a 200 stream
 * FakeReply.answer()                                              // the protocol's answer computed from the request
 * FakeReply.body("{\"data\": []}")                                // a 200 with exactly this body
 * </pre>
 */
public final class FakeReply {

  /** A tool call whose JSON arguments are sent in {@code fragments} (one stream chunk each). */
  public record ToolCallScript(String id, String name, List<String> fragments) {
    public String arguments() {
      return String.join("", fragments);
    }
  }

  final List<String> tokens = new ArrayList<>();
  final List<ToolCallScript> toolCalls = new ArrayList<>();
  final Map<String, String> headers = new LinkedHashMap<>();
  int status = 200;
  String errorBody;
  String body;
  String streamErrorType;
  String streamErrorMessage;
  int promptTokens = 10;
  int completionTokens = -1;
  long delayMs;
  long tokenDelayMs;
  int disconnectAfter = -1;

  private FakeReply() {
  }

  /** A text answer; streamed word by word (each word keeps its leading space). */
  public static FakeReply text(String content) {
    FakeReply r = new FakeReply();
    int start = 0;
    for (int i = 1; i <= content.length(); i++) {
      if (i == content.length() || content.charAt(i) == ' ') {
        if (i > start) {
          r.tokens.add(content.substring(start, i));
        }
        start = i;
      }
    }
    return r;
  }

  /** The protocol's usual answer, computed from the request (an embedding server's vectors); for LLMs, no text. */
  public static FakeReply answer() {
    return new FakeReply();
  }

  /** A 200 answer with exactly this body (malformed or hand-made answers). */
  public static FakeReply body(String body) {
    FakeReply r = new FakeReply();
    r.body = body;
    return r;
  }

  /** A text answer streamed as exactly these chunks. */
  public static FakeReply tokens(String... tokens) {
    FakeReply r = new FakeReply();
    r.tokens.addAll(List.of(tokens));
    return r;
  }

  /** An answer that only calls one tool; its arguments are streamed in the given fragments. */
  public static FakeReply toolCall(String id, String name, String... argumentFragments) {
    return new FakeReply().withToolCall(id, name, argumentFragments);
  }

  /** An HTTP error with the provider's usual error body. */
  public static FakeReply error(int status) {
    FakeReply r = new FakeReply();
    r.status = status;
    return r;
  }

  /** An HTTP error with this body. */
  public static FakeReply error(int status, String body) {
    FakeReply r = error(status);
    r.errorBody = body;
    return r;
  }

  /** A 200 stream that carries an error event (non-streamed requests get HTTP 500 instead). */
  public static FakeReply streamError(String type, String message) {
    FakeReply r = new FakeReply();
    r.streamErrorType = type;
    r.streamErrorMessage = message;
    return r;
  }

  public FakeReply withToolCall(String id, String name, String... argumentFragments) {
    toolCalls.add(new ToolCallScript(id, name, List.of(argumentFragments)));
    return this;
  }

  public FakeReply usage(int prompt, int completion) {
    promptTokens = prompt;
    completionTokens = completion;
    return this;
  }

  public FakeReply header(String name, String value) {
    headers.put(name, value);
    return this;
  }

  /** Waits this long before sending the response headers. */
  public FakeReply delay(long ms) {
    delayMs = ms;
    return this;
  }

  /** Waits this long between stream events. */
  public FakeReply tokenDelay(long ms) {
    tokenDelayMs = ms;
    return this;
  }

  /** Closes the connection after this many stream events (no end marker). */
  public FakeReply disconnectAfter(int events) {
    disconnectAfter = events;
    return this;
  }

  public String content() {
    return String.join("", tokens);
  }

  int completionTokens() {
    return completionTokens >= 0 ? completionTokens : tokens.size() + toolCalls.size();
  }

  boolean isError() {
    return status != 200;
  }
}
