package dev.argus.bridge;

import dev.argus.common.ApiException;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.shareddata.LocalMap;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a request to the SockJS transports (WebSocket, XHR and EventSource; the legacy JSONP and htmlfile transports
 * are off: their missing-callback answers are 500s, and no current client needs them) at {@code /eventbus} before vertx-web's SockJS handler sees it, so that a
 * bad one is answered like every other bad request (4xx, {@code {"error", "code"}}) instead of the SockJS protocol's
 * 500 ("Payload expected.", "Broken JSON encoding.") or empty 404/405 bodies: a known path and method (405
 * {@code method_not_allowed}, 404 {@code not_found}), a WebSocket path only as an upgrade (400
 * {@code websocket_expected}), and for the send transport ({@code xhr_send}) a live session (404
 * {@code unknown_session}) and a body of at most {@code bridge.maxMessageBytes} (413) that is a JSON array of strings
 * (400 {@code payload_expected}, {@code invalid_payload}). Found by scripts/fuzz-bridge.py.
 */
final class SockJsTransportGuard {

  /** Where vertx-web's SockJS handler keeps its sessions (SockJSImpl); only read here, to answer 404 in our shape. */
  static final String SESSIONS_MAP = "_vertx.sockjssessions";

  private static final Pattern SESSION_PATH = Pattern.compile("/([^/.]+)/([^/.]+)/([a-z_]+)");
  private static final Pattern IFRAME = Pattern.compile("/iframe(-[^/]*)?\\.html");
  private static final Set<String> POSTS = Set.of("xhr", "xhr_streaming", "xhr_send");
  private static final Set<String> GETS = Set.of("websocket", "eventsource");

  private final String prefix;
  private final LocalMap<String, Object> sessions;
  private final BodyHandler body;

  SockJsTransportGuard(Vertx vertx, String prefix, int maxMessageBytes) {
    this.prefix = prefix;
    this.sessions = vertx.sharedData().getLocalMap(SESSIONS_MAP);
    this.body = BodyHandler.create(false).setBodyLimit(maxMessageBytes);
  }

  /** The handlers to put in front of the SockJS router, in order: path and method, the body, the payload. */
  List<Handler<RoutingContext>> handlers() {
    return List.of(this::route, rc -> {
      if (isSend(rc)) {
        body.handle(rc);
      } else {
        rc.next();
      }
    }, this::payload);
  }

  private void route(RoutingContext rc) {
    String path = rc.normalizedPath().substring(Math.min(prefix.length(), rc.normalizedPath().length()));
    HttpMethod method = rc.request().method();
    if (path.isEmpty() || path.equals("/") || path.equals("/info") || IFRAME.matcher(path).matches()) {
      allow(rc, method == HttpMethod.GET || method == HttpMethod.HEAD || method == HttpMethod.OPTIONS);
      return;
    }
    if (path.equals("/websocket")) {
      websocket(rc, method);
      return;
    }
    Matcher m = SESSION_PATH.matcher(path);
    if (!m.matches() || !(POSTS.contains(m.group(3)) || GETS.contains(m.group(3)))) {
      rc.fail(ApiException.notFound("not_found", "no such bridge transport"));
      return;
    }
    String transport = m.group(3);
    if (transport.equals("websocket")) {
      websocket(rc, method);
      return;
    }
    if (method == HttpMethod.OPTIONS) {
      rc.next();
      return;
    }
    if (!(POSTS.contains(transport) ? method == HttpMethod.POST : method == HttpMethod.GET)) {
      allow(rc, false);
      return;
    }
    if (transport.equals("xhr_send") && !sessions.containsKey(m.group(2))) {
      rc.fail(ApiException.notFound("unknown_session", "no open bridge session '" + m.group(2) + "'"));
      return;
    }
    rc.next();
  }

  private void websocket(RoutingContext rc, HttpMethod method) {
    if (method != HttpMethod.GET) {
      allow(rc, false);
    } else if (!"websocket".equalsIgnoreCase(rc.request().getHeader(HttpHeaders.UPGRADE))) {
      rc.fail(ApiException.badRequest("websocket_expected", "this path only accepts a WebSocket upgrade"));
    } else {
      rc.next();
    }
  }

  private static void allow(RoutingContext rc, boolean allowed) {
    if (allowed) {
      rc.next();
    } else {
      rc.fail(new ApiException(405, "method_not_allowed", "method " + rc.request().method().name()
          + " is not allowed on this bridge path"));
    }
  }

  private boolean isSend(RoutingContext rc) {
    return rc.request().method() == HttpMethod.POST && rc.normalizedPath().endsWith("/xhr_send");
  }

  /** A send's body: a JSON array of strings. */
  private void payload(RoutingContext rc) {
    if (!isSend(rc)) {
      rc.next();
      return;
    }
    String text = rc.body() == null || rc.body().buffer() == null ? ""
        : rc.body().buffer().toString(StandardCharsets.UTF_8);
    if (text.isBlank()) {
      rc.fail(ApiException.badRequest("payload_expected", "a bridge send needs a payload (a JSON array of frames)"));
      return;
    }
    try {
      JsonArray frames = new JsonArray(text);
      if (frames.stream().allMatch(f -> f instanceof String)) {
        rc.next();
        return;
      }
    } catch (DecodeException | ClassCastException ignored) {
      // answered below
    }
    rc.fail(ApiException.badRequest("invalid_payload", "a bridge send's payload must be a JSON array of strings"));
  }
}
