package dev.argus.bridge;

import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
import dev.argus.http.Caller;
import dev.argus.http.Gate;
import dev.argus.http.RateLimited;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.bridge.BaseBridgeEvent;

import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * The bridge event hook shared by the SockJS and the TCP bridge: every {@code send}, {@code publish} and
 * {@code register} is checked against {@link BridgeAddresses} (403 {@code address_not_permitted}), authenticated by
 * its {@code authorization} header ({@code Bearer <key or JWT>}; a browser SockJS client cannot set HTTP headers)
 * through the same {@link Gate} as HTTP (401), authorized for the address's permission (403) and counted against the
 * key's rate limit (429). The credential is removed before the message reaches the bus; a search carries the key's
 * namespace limit, a chat start a namespace the key may read. A refused {@code send} with a reply address gets an
 * error reply on that address ({@code failureCode} = the HTTP status, {@code message} = {@code {"error", "code"}}), as
 * a failed request would; then the bridge's own {@code err} frame follows. The fraud domain's addresses (decide,
 * decisions, reviews, records, graph, shadow) follow the namespace rule of their HTTP routes
 * ({@code access.DomainNamespaceGuard}): a key limited to namespaces without the records' namespace is refused (403
 * {@code namespace_forbidden}).
 */
public final class BridgeGuard {

  private static final Logger LOG = Logger.getLogger(BridgeGuard.class.getName());

  /** The address families of the fraud domain's data. */
  private static final java.util.List<String> DOMAIN_PREFIXES = java.util.List.of("argus.decide.", "argus.decisions.",
      "argus.reviews.", "argus.records.", "argus.graph.", "argus.shadow.");

  private final Gate gate;
  private final int maxMessageBytes;
  private final String domainNamespace;

  /** Without a domain namespace rule (every key that holds the permission reaches the domain's addresses). */
  public BridgeGuard(Gate gate, int maxMessageBytes) {
    this(gate, maxMessageBytes, null);
  }

  /** @param domainNamespace the records' namespace ({@code records.caseNamespace}) the domain's addresses belong to */
  public BridgeGuard(Gate gate, int maxMessageBytes, String domainNamespace) {
    this.gate = gate;
    this.maxMessageBytes = maxMessageBytes;
    this.domainNamespace = domainNamespace;
  }

  /**
   * Decides one bridge event.
   *
   * @param remote     the client's address (loopback clients may go without a key when keys are not required)
   * @param writeFrame writes a frame (a JSON envelope) to this client
   */
  public void handle(BaseBridgeEvent event, SocketAddress remote, Consumer<JsonObject> writeFrame) {
    switch (event.type()) {
      case SEND, PUBLISH, REGISTER -> check(event, remote, writeFrame);
      default -> event.tryComplete(true);
    }
  }

  private void check(BaseBridgeEvent event, SocketAddress remote, Consumer<JsonObject> writeFrame) {
    JsonObject raw = event.getRawMessage();
    String address = raw == null ? null : text(raw, "address");
    boolean inbound = event.type() != io.vertx.ext.bridge.BridgeEventType.REGISTER;
    if (raw == null) {
      event.tryComplete(false);
      return;
    }
    if (address == null) {
      refuse(event, raw, writeFrame, ApiException.badRequest("invalid_frame", "field 'address' must be a string"));
      return;
    }
    Optional<ApiException> malformed = malformed(raw, event.type() == io.vertx.ext.bridge.BridgeEventType.SEND);
    if (malformed.isPresent()) {
      refuse(event, raw, writeFrame, malformed.get());
      return;
    }
    if (inbound && raw.encode().length() > maxMessageBytes) {
      refuse(event, raw, writeFrame, ApiException.tooLarge("the message is larger than bridge.maxMessageBytes ("
          + maxMessageBytes + ")"));
      return;
    }
    Optional<BridgedAddress> rule = BridgeAddresses.find(address, inbound);
    if (rule.isEmpty() || event.type() == io.vertx.ext.bridge.BridgeEventType.PUBLISH) {
      refuse(event, raw, writeFrame, new ApiException(403, "address_not_permitted", (inbound ? "sending to" :
          "subscribing to") + " '" + clip(address) + "' over the bridge is not permitted"));
      return;
    }
    JsonObject headers = raw.getJsonObject("headers");
    String authorization = header(headers, "authorization");
    Future<Caller> identified = gate.identify(authorization, isLoopback(remote));
    identified.onComplete(ar -> {
      if (ar.failed()) {
        refuse(event, raw, writeFrame, ar.cause() instanceof ApiException a ? a
            : new ApiException(401, "unauthorized", "the credentials could not be checked"));
        return;
      }
      Caller caller = ar.result();
      Optional<ApiException> refusal = gate.admit(caller, rule.get().permission());
      if (refusal.isPresent()) {
        refuse(event, raw, writeFrame, refusal.get());
        return;
      }
      if (domainNamespace != null && !caller.mayRead(domainNamespace)
          && DOMAIN_PREFIXES.stream().anyMatch(address::startsWith)) {
        refuse(event, raw, writeFrame, new ApiException(403, "namespace_forbidden", "this key may not use the "
            + "fraud-domain data of namespace '" + domainNamespace + "'"));
        return;
      }
      try {
        rewrite(raw, address, caller);
      } catch (ApiException e) {
        refuse(event, raw, writeFrame, e);
        return;
      }
      event.tryComplete(true);
    });
  }

  /**
   * What is wrong with an envelope's fields, if anything (400 {@code invalid_frame}): {@code replyAddress} a string,
   * {@code headers} an object of strings ({@link BridgeHeaders}), and a {@code send}'s {@code body} an object (every
   * bridged request is one).
   * Without this a wrong type threw in the hook and the message was neither refused nor delivered (found by
   * scripts/fuzz-bridge.py).
   */
  static Optional<ApiException> malformed(JsonObject raw, boolean send) {
    Object reply = raw.getValue("replyAddress");
    if (reply != null && !(reply instanceof String)) {
      return Optional.of(ApiException.badRequest("invalid_frame", "field 'replyAddress' must be a string"));
    }
    if (!BridgeHeaders.valid(raw.getValue("headers"))) {
      return Optional.of(ApiException.badRequest("invalid_frame", "field 'headers' must be an object of strings"
          + " named by HTTP tokens, without control characters"));
    }
    if (send && !(raw.getValue("body") instanceof JsonObject)) {
      return Optional.of(ApiException.badRequest("invalid_frame", "field 'body' must be a JSON object"));
    }
    return Optional.empty();
  }

  /** Removes the credential; puts the caller's limits into the requests that need them. */
  private static void rewrite(JsonObject raw, String address, Caller caller) {
    JsonObject headers = raw.getJsonObject("headers");
    if (headers != null) {
      for (String name : headers.fieldNames().stream().toList()) {
        if (name.equalsIgnoreCase("authorization")) {
          headers.remove(name);
        }
      }
      headers.put("argus-caller", caller.id()).put("argus-role", caller.role());
    } else {
      raw.put("headers", new JsonObject().put("argus-caller", caller.id()).put("argus-role", caller.role()));
    }
    Object body = raw.getValue("body");
    if (address.equals(Addresses.RETRIEVE_SEARCH) && body instanceof JsonObject search) {
      search.remove("allowedNamespaces");
      JsonArray limit = caller.namespacesJson();
      if (limit != null) {
        search.put("allowedNamespaces", limit);
      }
    } else if (address.equals(Addresses.AGENT_RUN_START) && body instanceof JsonObject start && caller.limited()) {
      Object namespace = start.getValue("namespace");
      if (namespace != null && !(namespace instanceof String)) {
        throw ApiException.badRequest("invalid_field", "field 'namespace' must be a string");
      }
      start.put("namespace", caller.namespaceFor((String) namespace));
    }
  }

  private void refuse(BaseBridgeEvent event, JsonObject raw, Consumer<JsonObject> writeFrame, ApiException error) {
    String replyAddress = text(raw, "replyAddress");
    if (replyAddress != null && event.type() == io.vertx.ext.bridge.BridgeEventType.SEND) {
      JsonObject message = error.toJson();
      if (error instanceof RateLimited limited) {
        message.put("retryAfter", limited.retryAfterSeconds());
      }
      writeFrame.accept(new JsonObject().put("type", "err").put("address", replyAddress)
          .put("sourceAddress", text(raw, "address")).put("failureCode", error.status())
          .put("failureType", "RECIPIENT_FAILURE").put("message", message.encode()));
    }
    LOG.fine(() -> "bridge refused " + event.type() + " " + clip(text(raw, "address")) + ": " + error.code());
    event.tryComplete(false);
  }

  /** A field's value when it is a string, else {@code null} (never a ClassCastException). */
  private static String text(JsonObject raw, String field) {
    return raw.getValue(field) instanceof String s ? s : null;
  }

  private static String header(JsonObject headers, String name) {
    if (headers == null) {
      return null;
    }
    for (String key : headers.fieldNames()) {
      if (key.toLowerCase(Locale.ROOT).equals(name)) {
        Object v = headers.getValue(key);
        return v == null ? null : String.valueOf(v);
      }
    }
    return null;
  }

  static boolean isLoopback(SocketAddress remote) {
    if (remote == null || remote.host() == null) {
      return false;
    }
    String h = remote.host().toLowerCase(Locale.ROOT);
    return h.startsWith("127.") || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1");
  }

  private static String clip(String s) {
    return s == null ? "" : s.length() > 80 ? s.substring(0, 80) + "..." : s;
  }
}
