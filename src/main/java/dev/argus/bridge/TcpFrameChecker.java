package dev.argus.bridge;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Reads the TCP bridge's frames (a 4-byte big-endian length, then that many bytes of a JSON envelope) before
 * vertx-tcp-eventbus-bridge does, and passes on only frames it can handle: a JSON object whose {@code type} is one of
 * {@code send, publish, register, unregister, ping}. Found by scripts/fuzz-bridge.py, the library (5.0.8) otherwise
 * buffers a frame of any announced length (memory without bound), and throws on an unknown {@code type} before the
 * bridge hook, which leaves that connection's framing out of step for good (every later frame is lost).
 * <ul>
 *   <li>a frame longer than {@code maxFrameBytes}: its bytes are skipped as they arrive (never buffered) and the
 *       client gets {@code {"type": "err", "message": "frame_too_large"}};</li>
 *   <li>a negative length (no frame can follow it): {@code err} {@code invalid_frame}, and the connection is closed;</li>
 *   <li>not a JSON object, a bad {@code type}, or {@code address}/{@code replyAddress}/{@code headers} of the wrong
 *       type, a header among them ({@link BridgeHeaders}; the library casts them before any hook, and copies the
 *       headers of every frame it lets through, an {@code unregister}'s too: a null value threw there, and the
 *       frames behind it in the same read waited for the client's next write): {@code err} {@code invalid_json} /
 *       {@code invalid_type} / {@code invalid_frame}, and when the envelope names a {@code replyAddress}, first a
 *       failure reply to it (400, {@code {"error", "code"}}), as {@link BridgeGuard} answers a refused request.</li>
 * </ul>
 */
final class TcpFrameChecker implements Handler<Buffer> {

  private static final Logger LOG = Logger.getLogger(TcpFrameChecker.class.getName());
  private static final Set<String> TYPES = Set.of("send", "publish", "register", "unregister", "ping");

  private final int maxFrameBytes;
  private final Handler<Buffer> downstream;
  private final Consumer<JsonObject> writeFrame;
  private final Runnable close;
  private Buffer pending = Buffer.buffer();
  private long skipping;
  private boolean closed;

  /**
   * @param downstream the library's frame parser: gets whole, checked frames (length and envelope)
   * @param writeFrame writes a frame to the client
   * @param close      closes the connection
   */
  TcpFrameChecker(int maxFrameBytes, Handler<Buffer> downstream, Consumer<JsonObject> writeFrame, Runnable close) {
    this.maxFrameBytes = maxFrameBytes;
    this.downstream = downstream;
    this.writeFrame = writeFrame;
    this.close = close;
  }

  @Override
  public void handle(Buffer data) {
    if (closed) {
      return;
    }
    int from = 0;
    if (skipping > 0) {
      int skip = (int) Math.min(skipping, data.length());
      skipping -= skip;
      from = skip;
    }
    pending.appendBuffer(data, from, data.length() - from);
    int off = 0;
    while (pending.length() - off >= 4) {
      int length = pending.getInt(off);
      if (length < 0) {
        writeFrame.accept(new JsonObject().put("type", "err").put("message", "invalid_frame"));
        closed = true;
        pending = Buffer.buffer();
        close.run();
        return;
      }
      if (length > maxFrameBytes) {
        writeFrame.accept(new JsonObject().put("type", "err").put("message", "frame_too_large"));
        int here = Math.min(length, pending.length() - off - 4);
        off += 4 + here;
        skipping = length - (long) here;
        continue;
      }
      if (pending.length() - off - 4 < length) {
        break;
      }
      String text = pending.getString(off + 4, off + 4 + length, StandardCharsets.UTF_8.name());
      if (admissible(text)) {
        pass(pending.getBuffer(off, off + 4 + length));
      }
      off += 4 + length;
    }
    pending = off == 0 ? pending : pending.getBuffer(off, pending.length());
  }

  /**
   * Hands one checked frame to the library. Should it still throw, the client gets {@code err} {@code invalid_frame}
   * and the frames behind this one in the same read are handled all the same: an exception let out of this loop
   * would leave them waiting for the client's next write (a request sent just behind such a frame went unanswered).
   */
  private void pass(Buffer frame) {
    try {
      downstream.handle(frame);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "the TCP bridge could not handle a frame", e);
      writeFrame.accept(new JsonObject().put("type", "err").put("message", "invalid_frame"));
    }
  }

  /** True when the envelope may go on; otherwise answers the client. */
  private boolean admissible(String text) {
    JsonObject envelope;
    try {
      envelope = new JsonObject(text);
    } catch (DecodeException | ClassCastException e) {
      writeFrame.accept(new JsonObject().put("type", "err").put("message", "invalid_json"));
      return false;
    }
    if (!(envelope.getValue("type") instanceof String type && TYPES.contains(type))) {
      return refuse(envelope, "invalid_type", "field 'type' must be one of " + TYPES);
    }
    // the library reads these with typed getters before any hook, for every type (unregister too)
    Object address = envelope.getValue("address");
    Object reply = envelope.getValue("replyAddress");
    Object headers = envelope.getValue("headers");
    if ((address != null && !(address instanceof String)) || (reply != null && !(reply instanceof String))
        || !BridgeHeaders.valid(headers)) {
      return refuse(envelope, "invalid_frame", "fields 'address' and 'replyAddress' must be strings, 'headers' an "
          + "object of strings named by HTTP tokens, without control characters");
    }
    return true;
  }

  /** Answers a refused envelope: a failure reply when it names a reply address, then an {@code err} frame. */
  private boolean refuse(JsonObject envelope, String code, String error) {
    if (envelope.getValue("replyAddress") instanceof String reply) {
      writeFrame.accept(new JsonObject().put("type", "err").put("address", reply).put("failureCode", 400)
          .put("failureType", "RECIPIENT_FAILURE").put("message", new JsonObject()
              .put("error", error).put("code", code).encode()));
    }
    writeFrame.accept(new JsonObject().put("type", "err").put("message", code));
    return false;
  }
}
