package dev.argus.agent.api;

import dev.argus.http.Caller;
import dev.argus.http.Permission;
import io.vertx.core.http.HttpMethod;
import dev.argus.common.Fields;

import dev.argus.config.AgentConf;
import dev.argus.agent.StartRun;
import dev.argus.bus.Addresses;
import dev.argus.common.ApiException;
import dev.argus.bus.BusFailures;
import dev.argus.http.Bus;
import dev.argus.http.Requests;
import dev.argus.http.RouteGroup;
import dev.argus.runs.RunEvent;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.UUID;

/**
 * {@code POST /v1/chat/completions} in the OpenAI wire format, so OpenAI SDKs and chat front-ends can ask Argus. The
 * last user message is the question, the messages before it its conversation (a follow-up is rewritten from them);
 * {@code model} names the agent profile ({@code argus} or absent: the default). Non-stream: a {@code chat.completion}
 * with the verified answer; stream: {@code chat.completion.chunk} events with the final answer's text only (never a
 * draft Reflect withdrew), a last chunk with {@code finish_reason: "stop"}, then {@code data: [DONE]}. Citations travel in
 * the extra field {@code citations} (and {@code argus: {runId, verified, confidence}}) of the response and of the
 * final chunk. Errors use OpenAI's shape {@code {"error": {"message", "type", "code"}}}. Not counted by chat admission
 * ({@code agent.maxConcurrentChats}, {@code ChatRoutes}): each request starts its run at once, as a non-streamed answer
 * could not show a wait (no byte before its JSON) and OpenAI clients expect no {@code queued} event.
 */
public final class OpenAiCompatRoutes implements RouteGroup {

  private final Vertx vertx;
  private final Bus bus;
  private final AgentConf conf;

  public OpenAiCompatRoutes(Vertx vertx, Bus bus, AgentConf conf) {
    this.vertx = vertx;
    this.bus = bus;
    this.conf = conf;
  }

  /** Reads need {@code read}; writes need {@code chat}. */
  @Override
  public Permission permission(HttpMethod method) {
    return Permission.defaultFor(method) == Permission.READ ? Permission.READ : Permission.CHAT;
  }

  @Override
  public void mount(Router router) {
    router.post("/v1/chat/completions").handler(this::completions);
    router.get("/v1/models").handler(ctx -> ctx.json(new JsonObject().put("object", "list").put("data",
        new JsonArray().add(new JsonObject().put("id", "argus").put("object", "model").put("owned_by", "argus")))));
  }

  private void completions(RoutingContext ctx) {
    StartRun start;
    boolean stream;
    String model;
    try {
      JsonObject body = Requests.jsonObject(ctx);
      JsonArray messages = Fields.optionalArray(body, "messages");
      if (messages == null || messages.isEmpty()) {
        throw ApiException.badRequest("missing_field", "field 'messages' must be a non-empty array");
      }
      String question = lastUserText(messages);
      if (question == null || question.isBlank()) {
        throw ApiException.badRequest("missing_field", "no user message with text content");
      }
      if (question.length() > conf.maxQuestionChars()) {
        throw ApiException.badRequest("field_too_long", "the user message is longer than " + conf.maxQuestionChars()
            + " characters");
      }
      model = Fields.optionalString(body, "model", 64);
      Object s = body.getValue("stream");
      stream = Boolean.TRUE.equals(s);
      String profile = model == null || model.isBlank() || "argus".equals(model) ? null
          : model.startsWith("argus-") ? model.substring(6) : model;
      Fields.optionalString(body, "user", 200); // accepted and checked; the conversation is the messages
      Object strip = body.getValue("stripMarkup");
      String namespace = Caller.of(ctx).namespaceFor(Fields.optionalString(body, "namespace", 200));
      start = new StartRun(UUID.randomUUID().toString(), question, namespace,
          Fields.optionalObject(body, "filters"), profile, null, history(messages, conf.maxQuestionChars()),
          strip instanceof Boolean b ? b : null);
    } catch (ApiException e) {
      error(ctx.response(), e);
      return;
    }
    String modelName = model == null ? "argus" : model;
    RunEventRelay relay = new RunEventRelay(vertx, bus, start.runId(), conf.sseMaxBuffered());
    relay.subscribed()
        .compose(v -> bus.request(Addresses.AGENT_RUN_START, start.toJson()))
        .compose(reply -> relay.fetch(0))
        .onSuccess(fetched -> {
          HttpServerResponse resp = ctx.response();
          EventSink sink = stream ? new StreamSink(resp, start.runId(), modelName) : new CollectSink(resp, start.runId(), modelName);
          resp.closeHandler(v -> relay.cancel());
          relay.attach(sink, 0, fetched);
        })
        .onFailure(err -> {
          relay.cancel();
          error(ctx.response(), BusFailures.toApi(err));
        });
  }

  /**
   * The conversation before the last user message: one turn per earlier user message, with the assistant's reply
   * that followed it ({@code {question, answer}}, oldest first). Over-long earlier messages are cut.
   */
  static JsonArray history(JsonArray messages, int maxChars) {
    int last = -1;
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.getValue(i) instanceof JsonObject m && "user".equals(m.getString("role"))) {
        last = i;
        break;
      }
    }
    JsonArray turns = new JsonArray();
    JsonObject open = null;
    for (int i = 0; i < last; i++) {
      if (!(messages.getValue(i) instanceof JsonObject m)) {
        continue;
      }
      String text = text(m.getValue("content"));
      if (text == null || text.isBlank()) {
        continue;
      }
      if ("user".equals(m.getString("role"))) {
        open = new JsonObject().put("question", text.length() > maxChars ? text.substring(0, maxChars) : text)
            .put("answer", "");
        turns.add(open);
      } else if ("assistant".equals(m.getString("role")) && open != null) {
        open.put("answer", text);
      }
    }
    return turns;
  }

  static String lastUserText(JsonArray messages) {
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (!(messages.getValue(i) instanceof JsonObject m) || !"user".equals(m.getString("role"))) {
        continue;
      }
      return text(m.getValue("content"));
    }
    return null;
  }

  /** A message's text: a string, or the text parts of a content array. */
  private static String text(Object content) {
    if (content instanceof String s) {
      return s;
    }
    if (content instanceof JsonArray parts) {
      StringBuilder sb = new StringBuilder();
      for (Object p : parts) {
        if (p instanceof JsonObject part && "text".equals(part.getString("type")) && part.getValue("text") instanceof String t) {
          sb.append(sb.isEmpty() ? "" : "\n").append(t);
        }
      }
      return sb.toString();
    }
    return null;
  }

  static void error(HttpServerResponse resp, ApiException e) {
    if (resp.headWritten()) {
      resp.end();
      return;
    }
    String type = e.status() < 500 ? "invalid_request_error" : "server_error";
    resp.setStatusCode(e.status()).putHeader("Content-Type", "application/json").end(new JsonObject().put("error",
        new JsonObject().put("message", e.getMessage()).put("type", type).put("code", e.code())).encode());
  }

  static JsonObject argusField(JsonObject fin, String runId) {
    return new JsonObject().put("runId", runId).put("verified", fin.getBoolean("verified", false))
        .put("confidence", fin.getDouble("confidence", 0.0)).put("answer", fin.getString("answer"));
  }

  /** Non-stream: waits for {@code final} and answers one {@code chat.completion}. */
  private static final class CollectSink implements EventSink {
    private final HttpServerResponse resp;
    private final String runId;
    private final String model;

    CollectSink(HttpServerResponse resp, String runId, String model) {
      this.resp = resp;
      this.runId = runId;
      this.model = model;
    }

    @Override
    public void write(RunEvent ev) {
      if (RunEvent.FINAL.equals(ev.type())) {
        JsonObject fin = ev.data();
        JsonObject body = new JsonObject().put("id", "chatcmpl-" + runId).put("object", "chat.completion")
            .put("created", System.currentTimeMillis() / 1000).put("model", model)
            .put("choices", new JsonArray().add(new JsonObject().put("index", 0)
                .put("message", new JsonObject().put("role", "assistant").put("content", fin.getString("answer")))
                .put("finish_reason", "stop")))
            .put("usage", new JsonObject().put("prompt_tokens", 0).put("completion_tokens", 0).put("total_tokens", 0))
            .put("citations", fin.getJsonArray("citations", new JsonArray()))
            .put("argus", argusField(fin, runId));
        resp.putHeader("Content-Type", "application/json").end(body.encode());
      } else if (RunEvent.ERROR.equals(ev.type())) {
        error(resp, new ApiException(503, "run_failed", ev.data().getString("error", "the run failed")));
      }
    }

    @Override
    public void end() {
    }
  }

  /** Stream: {@code chat.completion.chunk} events, then {@code [DONE]}. */
  private static final class StreamSink implements EventSink {
    private final HttpServerResponse resp;
    private final String runId;
    private final String model;
    private final long created = System.currentTimeMillis() / 1000;

    StreamSink(HttpServerResponse resp, String runId, String model) {
      this.resp = resp;
      this.runId = runId;
      this.model = model;
      resp.setStatusCode(200).putHeader("Content-Type", "text/event-stream; charset=utf-8")
          .putHeader("Cache-Control", "no-cache").setChunked(true);
      chunk(new JsonObject().put("role", "assistant").put("content", ""), null, null);
    }

    private void chunk(JsonObject delta, String finish, JsonObject extra) {
      JsonObject c = new JsonObject().put("id", "chatcmpl-" + runId).put("object", "chat.completion.chunk")
          .put("created", created).put("model", model)
          .put("choices", new JsonArray().add(new JsonObject().put("index", 0).put("delta", delta)
              .put("finish_reason", finish)));
      if (extra != null) {
        c.mergeIn(extra);
      }
      if (!resp.closed()) {
        resp.write("data: " + c.encode() + "\n\n");
      }
    }

    @Override
    public void write(RunEvent ev) {
      switch (ev.type()) {
        case RunEvent.TOKEN -> chunk(new JsonObject().put("content", ev.data().getString("text", "")), null, null);
        case RunEvent.FINAL -> chunk(new JsonObject(), "stop", new JsonObject()
            .put("citations", ev.data().getJsonArray("citations", new JsonArray()))
            .put("argus", argusField(ev.data(), runId)));
        case RunEvent.ERROR -> chunk(new JsonObject(), "error", new JsonObject().put("error", new JsonObject()
            .put("message", ev.data().getString("error")).put("type", "server_error").put("code", "run_failed")));
        default -> {
        }
      }
    }

    @Override
    public boolean full() {
      return resp.writeQueueFull();
    }

    @Override
    public void onDrain(Runnable action) {
      resp.drainHandler(v -> action.run());
    }

    @Override
    public void end() {
      if (!resp.closed()) {
        resp.end("data: [DONE]\n\n");
      }
    }
  }
}
