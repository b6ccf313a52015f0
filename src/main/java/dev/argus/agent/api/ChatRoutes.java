package dev.argus.agent.api;

import dev.argus.common.ConcurrencyLimiter;
import dev.argus.http.Caller;
import dev.argus.http.Permission;
import io.vertx.core.http.HttpMethod;
import dev.argus.common.Fields;

import dev.argus.config.AgentConf;
import dev.argus.agent.StartRun;
import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
import dev.argus.http.Bus;
import dev.argus.http.Requests;
import dev.argus.http.RouteGroup;
import dev.argus.http.SseStream;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.UUID;

/**
 * {@code POST /api/chat} ({@code {question, namespace?, filters?, profile?, sessionId?, stripMarkup?}}): starts a run
 * and streams its events as {@code text/event-stream} ({@code run}, {@code rewrite}, {@code phase}, {@code agent_log},
 * {@code tool_call}, {@code tool_result}, {@code source_flagged}, {@code draft}, {@code reset}, {@code token},
 * {@code citations}, {@code verification}, {@code final} | {@code error}), each with an {@code id:}. A
 * {@code sessionId} continues that conversation (follow-ups are rewritten from its recent turns). Invalid input answers 4xx JSON before any stream starts. Reconnect with
 * {@code GET /api/runs/{id}/events} and {@code Last-Event-ID}. At most {@code agent.maxConcurrentChats} stream at once;
 * the next {@code agent.maxQueuedChats} wait their turn, more are refused 503 {@code overloaded}. Without that limit,
 * 200 streams on 2 cores each got 1/100 of a core, the run start's reply outlasted {@code http.sendTimeoutMs} and the
 * retried runs piled up (scripts/prove-load). A queued chat's response starts when its slot comes (its time to first
 * token includes the wait); a client that went away while queued gives its slot back at once.
 */
public final class ChatRoutes implements RouteGroup {

  private final Vertx vertx;
  private final Bus bus;
  private final AgentConf conf;
  private final ConcurrencyLimiter slots;

  public ChatRoutes(Vertx vertx, Bus bus, AgentConf conf) {
    this.vertx = vertx;
    this.bus = bus;
    this.conf = conf;
    this.slots = new ConcurrencyLimiter(conf.maxConcurrentChats(), conf.maxQueuedChats(),
        () -> ApiException.unavailable("overloaded", "too many chats: " + conf.maxConcurrentChats() + " running and "
            + conf.maxQueuedChats() + " waiting; try again shortly"));
  }

  /** Reads need {@code read}; writes need {@code chat}. */
  @Override
  public Permission permission(HttpMethod method) {
    return Permission.defaultFor(method) == Permission.READ ? Permission.READ : Permission.CHAT;
  }

  @Override
  public void mount(Router router) {
    router.post("/api/chat").handler(this::chat);
  }

  /** The run in a namespace the caller may read (a key limited to namespaces searches only there). */
  static StartRun limited(StartRun s, Caller caller) {
    String namespace = caller.namespaceFor(s.namespace());
    return namespace == null || namespace.equals(s.namespace()) ? s : new StartRun(s.runId(), s.question(), namespace,
        s.filters(), s.profile(), s.sessionId(), s.history(), s.stripMarkup());
  }

  /** Parses and validates a chat request body (400 on any problem). */
  static StartRun parse(JsonObject body, AgentConf conf, String runId) {
    String question = Fields.requiredString(body, "question", conf.maxQuestionChars());
    String namespace = Fields.optionalString(body, "namespace", 200);
    JsonObject filters = Fields.optionalObject(body, "filters");
    String profile = Fields.optionalString(body, "profile", 64);
    String sessionId = Fields.optionalString(body, "sessionId", 200);
    Object strip = body.getValue("stripMarkup");
    if (strip != null && !(strip instanceof Boolean)) {
      throw ApiException.badRequest("invalid_field", "field 'stripMarkup' must be a boolean");
    }
    return new StartRun(runId, question, namespace, filters, profile, sessionId, null, (Boolean) strip);
  }

  private void chat(RoutingContext ctx) {
    StartRun start = limited(parse(Requests.jsonObject(ctx), conf, UUID.randomUUID().toString()), Caller.of(ctx));
    slots.acquireReleasable(vertx.getOrCreateContext()).onFailure(ctx::fail).onSuccess(release -> {
      if (ctx.response().closed()) {
        release.run(); // the client left while it waited
      } else {
        stream(ctx, start, release);
      }
    });
  }

  private void stream(RoutingContext ctx, StartRun start, Runnable release) {
    RunEventRelay relay = new RunEventRelay(vertx, bus, start.runId(), conf.sseMaxBuffered());
    relay.subscribed()
        .compose(v -> bus.request(Addresses.AGENT_RUN_START, start.toJson()))
        .compose(reply -> relay.fetch(0))
        .onSuccess(fetched -> {
          ctx.response().putHeader("X-Run-Id", start.runId());
          SseStream sse = SseStream.start(vertx, ctx.response(), conf.sseHeartbeatMs());
          sse.onClose(() -> {
            relay.cancel();
            release.run();
          });
          relay.attach(new SseSink(sse), 0, fetched);
        })
        .onFailure(err -> {
          relay.cancel();
          release.run();
          ctx.fail(err);
        });
  }
}
