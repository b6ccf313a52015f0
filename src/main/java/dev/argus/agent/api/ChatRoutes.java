package dev.argus.agent.api;

import dev.argus.common.ConcurrencyLimiter;
import dev.argus.http.Caller;
import dev.argus.http.Permission;
import io.vertx.core.http.HttpMethod;
import dev.argus.common.Fields;

import dev.argus.config.AgentConf;
import dev.argus.agent.StartRun;
import dev.argus.bus.Addresses;
import dev.argus.bus.BusFailures;
import dev.argus.runs.RunEvent;
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
 * {@code sessionId} continues that conversation (follow-ups are rewritten from its recent turns). Invalid input answers 4xx JSON
 * before any stream starts (an unknown profile or namespace too, unless the chat waited: see below). Reconnect with
 * {@code GET /api/runs/{id}/events} and {@code Last-Event-ID}. At most {@code agent.maxConcurrentChats} stream at once;
 * the next {@code agent.maxQueuedChats} wait their turn, more are refused 503 {@code overloaded} before any stream
 * starts. Without that limit, 200 streams on 2 cores each got 1/100 of a core, the run start's reply outlasted
 * {@code http.sendTimeoutMs} and the retried runs piled up (scripts/prove-load). A chat that waits gets its stream at
 * once (200, header {@code X-Run-Id}, a {@code queued} event {@code {runId, position}} without an id, then the
 * stream's heartbeat comments every {@code agent.sseHeartbeatMs}), so neither the client's read timeout nor the
 * server's idle timeout fires while it waits; its run starts when its slot comes and its events follow on the same
 * stream (a failure to start it is then an {@code error} event {@code {error, code}} without an id, as the stream has
 * begun). A client that leaves while queued gives its place back at once, and no run is started for it. A chat
 * admitted at once is answered as before: the stream starts with the run.
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
    ConcurrencyLimiter.Ticket ticket = slots.enter(vertx.getOrCreateContext());
    if (ticket.waits()) {
      queued(ctx, start, ticket);
      return;
    }
    ticket.granted().onFailure(ctx::fail).onSuccess(v -> run(ctx, start, ticket, null));
  }

  /**
   * A chat that has to wait: its stream starts now (status 200, {@code queued} without an id, heartbeats), so no read
   * or idle timeout fires while it waits; a client that leaves gives its place in the queue back at once.
   */
  private void queued(RoutingContext ctx, StartRun start, ConcurrencyLimiter.Ticket ticket) {
    ctx.response().putHeader("X-Run-Id", start.runId());
    SseStream sse = SseStream.start(vertx, ctx.response(), conf.sseHeartbeatMs());
    sse.onClose(ticket::leave);
    sse.send(null, RunEvent.QUEUED, new JsonObject().put("runId", start.runId()).put("position", ticket.position()));
    ticket.granted().onSuccess(v -> {
      if (sse.isClosed()) {
        ticket.leave(); // the client left as its slot came: the slot goes on (no-op when its close already left)
      } else {
        run(ctx, start, ticket, sse);
      }
    });
  }

  /**
   * Starts the run of a chat that holds its slot and relays its events; {@code open} is the stream of a chat that
   * waited (a failure to start then ends it with an {@code error} event), {@code null} for one admitted at once (a
   * failure is then a JSON error, as no stream has started).
   */
  private void run(RoutingContext ctx, StartRun start, ConcurrencyLimiter.Ticket ticket, SseStream open) {
    if (ctx.response().closed()) {
      ticket.leave(); // the client left before its run started: no run for it
      return;
    }
    RunEventRelay relay = new RunEventRelay(vertx, bus, start.runId(), conf.sseMaxBuffered());
    Runnable closed = () -> {
      relay.cancel();
      ticket.leave();
    };
    if (open != null) {
      open.onClose(closed);
    }
    relay.subscribed()
        .compose(v -> bus.request(Addresses.AGENT_RUN_START, start.toJson()))
        .compose(reply -> relay.fetch(0))
        .onSuccess(fetched -> {
          SseStream sse = open;
          if (sse == null && ctx.response().closed()) {
            closed.run(); // the client left while its run started: the run goes on, nobody to stream it to
            return;
          }
          if (sse == null) {
            ctx.response().putHeader("X-Run-Id", start.runId());
            sse = SseStream.start(vertx, ctx.response(), conf.sseHeartbeatMs());
            sse.onClose(closed);
          }
          relay.attach(new SseSink(sse), 0, fetched);
        })
        .onFailure(err -> {
          closed.run();
          if (open == null) {
            ctx.fail(err);
          } else {
            open.send(null, RunEvent.ERROR, BusFailures.toApi(err).toJson());
            open.end();
          }
        });
  }
}
