package dev.argus.agent.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.argus.common.ApiException;
import io.vertx.circuitbreaker.CircuitBreaker;
import io.vertx.circuitbreaker.CircuitBreakerOptions;
import io.vertx.circuitbreaker.OpenCircuitException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import io.vertx.core.json.jackson.DatabindCodec;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * Runs tool calls safely: parameters are validated against the tool's JSON schema first (networknt
 * json-schema-validator); each attempt runs through the tool's own circuit breaker (vertx-circuit-breaker) with a
 * timeout; transient failures (timeouts, 429, 5xx, no handler) are retried with exponential backoff; the outcome is
 * always an {@link EvidenceItem}, never a failed future.
 */
public final class ToolExecutor {

  /** The agent's breakers as metrics and health name them: {@code tool:<name>}. */
  public static final String AGENT_BREAKERS = "tool:";

  /** Timeouts, retries and breaker settings. */
  public record Settings(long timeoutMs, int retries, long backoffMs, int breakerMaxFailures, long breakerResetMs) {
  }

  private final Vertx vertx;
  private final Settings settings;
  private final Map<String, Tool> tools = new HashMap<>();
  private final Map<String, JsonSchema> schemas = new HashMap<>();
  private final Map<String, CircuitBreaker> breakers = new HashMap<>();

  /** The agent's executor: its breakers are named {@link #AGENT_BREAKERS} and the tool's name. */
  public ToolExecutor(Vertx vertx, Collection<Tool> all, Settings settings) {
    this(vertx, AGENT_BREAKERS, all, settings);
  }

  /**
   * An executor whose breakers are named {@code breakerPrefix} and the tool's name, in metrics ({@code
   * argus.breaker.state}) and health. Each executor has breakers of its own, so each needs its own names: the agent
   * and the decisions both run the record and graph tools, and a gauge registered again under a name already taken
   * is ignored, which would show the first executor's breaker in place of the second's.
   */
  public ToolExecutor(Vertx vertx, String breakerPrefix, Collection<Tool> all, Settings settings) {
    this.vertx = vertx;
    this.settings = settings;
    JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    for (Tool t : all) {
      tools.put(t.name(), t);
      schemas.put(t.name(), factory.getSchema(node(t.schema())));
      CircuitBreaker breaker = CircuitBreaker.create(breakerPrefix + t.name(), vertx, new CircuitBreakerOptions()
          .setMaxFailures(settings.breakerMaxFailures()).setTimeout(settings.timeoutMs())
          .setResetTimeout(settings.breakerResetMs()).setMaxRetries(0));
      breakers.put(t.name(), breaker);
      dev.argus.metrics.ArgusMeters.breaker(vertx, breakerPrefix + t.name(), breaker);
    }
  }

  public CircuitBreaker breaker(String tool) {
    return breakers.get(tool);
  }

  /** Validation problems of {@code params} for {@code tool}, empty when they are valid. */
  public Set<String> validate(String tool, JsonObject params) {
    JsonSchema schema = schemas.get(tool);
    if (schema == null) {
      return Set.of("unknown tool '" + tool + "'");
    }
    Set<ValidationMessage> errors = schema.validate(node(params == null ? new JsonObject() : params));
    return errors.stream().map(ValidationMessage::getMessage).collect(Collectors.toCollection(java.util.TreeSet::new));
  }

  /** Runs one call; the returned future always succeeds with the evidence item. */
  public Future<EvidenceItem> call(int index, String tool, JsonObject params) {
    long start = System.nanoTime();
    JsonObject p = params == null ? new JsonObject() : params;
    Set<String> problems = validate(tool, p);
    if (!problems.isEmpty()) {
      return Future.succeededFuture(new EvidenceItem(index, tool, p, false, null,
          "invalid parameters: " + String.join("; ", problems), 0, 0));
    }
    Tool t = tools.get(tool);
    CircuitBreaker breaker = breakers.get(tool);
    int[] attempts = {0};
    return attempt(t, breaker, p, 0, attempts)
        .map(data -> new EvidenceItem(index, tool, p, true, data, null, ms(start), attempts[0]))
        .otherwise(err -> new EvidenceItem(index, tool, p, false, null, describe(err), ms(start), attempts[0]));
  }

  private Future<JsonObject> attempt(Tool t, CircuitBreaker breaker, JsonObject params, int retry, int[] attempts) {
    attempts[0]++;
    return breaker.<JsonObject>execute(() -> t.execute(params)).recover(err -> {
      if (retry >= settings.retries() || !isTransient(err)) {
        return Future.failedFuture(err);
      }
      long delay = settings.backoffMs() * (1L << Math.min(retry, 16));
      Promise<JsonObject> later = Promise.promise();
      vertx.setTimer(delay, id -> attempt(t, breaker, params, retry + 1, attempts).onComplete(later));
      return later.future();
    });
  }

  /** Timeouts, rate limits, 5xx and missing handlers may pass; invalid input and an open breaker will not. */
  static boolean isTransient(Throwable err) {
    if (err instanceof OpenCircuitException) {
      return false;
    }
    if (err instanceof ToolError te) {
      return te.isTransient();
    }
    if (err instanceof TimeoutException || err instanceof io.vertx.circuitbreaker.TimeoutException) {
      return true;
    }
    if (err instanceof ReplyException re) {
      return re.failureType() != ReplyFailure.RECIPIENT_FAILURE || re.failureCode() == 429 || re.failureCode() >= 500;
    }
    if (err instanceof ApiException api) {
      return api.status() == 429 || api.status() >= 500;
    }
    return true;
  }

  static String describe(Throwable err) {
    if (err instanceof OpenCircuitException) {
      return "circuit breaker open";
    }
    if (err instanceof io.vertx.circuitbreaker.TimeoutException || err instanceof TimeoutException) {
      return "timed out";
    }
    if (err instanceof ReplyException re) {
      return switch (re.failureType()) {
        case NO_HANDLERS -> "service not available";
        case TIMEOUT -> "timed out";
        default -> {
          ApiException api = dev.argus.bus.BusFailures.toApi(re);
          yield api.status() + " " + api.getMessage();
        }
      };
    }
    return err.getMessage() == null ? err.getClass().getSimpleName() : err.getMessage();
  }

  private static long ms(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  private static JsonNode node(JsonObject json) {
    return DatabindCodec.mapper().valueToTree(json.getMap());
  }
}
