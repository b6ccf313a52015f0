package dev.argus.observe;

import dev.argus.config.ConfigException;
import dev.argus.config.ObserveConf;
import dev.argus.config.Settings;
import dev.argus.metrics.BoundedTags;
import dev.argus.runs.RunEvent;
import io.opentelemetry.api.trace.Span;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Traces built from constructed event logs: a refinement loop, a failed tool, a failed run, the span cap. */
class RunTraceBuilderTest {

  private final Tracing tracing = Tracing.create(ObserveConf.from(new Settings("observe", new JsonObject())));

  private static RunEvent ev(long id, String type, long at, JsonObject data) {
    return new RunEvent("r-1", id, type, data, at);
  }

  private static JsonObject phase(String name, String status) {
    return new JsonObject().put("name", name).put("status", status).put("ok", true).put("path", "rules");
  }

  private JsonArray build(List<RunEvent> events, int maxSpans) {
    String[] id = {null};
    Span root = new RunTraceBuilder(tracing.tracer(), maxSpans).build("r-1", "assistant", events, t -> {
      id[0] = t;
      tracing.collector().watch(t);
    });
    assertEquals(id[0], root.getSpanContext().getTraceId());
    return tracing.collector().take(id[0]);
  }

  @Test
  void aRefinementLoopAndAFailedToolInAFailedRun() {
    List<RunEvent> events = new ArrayList<>();
    long t = 1_000_000;
    events.add(ev(1, RunEvent.RUN, t, new JsonObject().put("runId", "r-1").put("profile", "assistant")));
    events.add(ev(2, RunEvent.PHASE, t + 1, phase("plan", "start")));
    events.add(ev(3, RunEvent.PHASE, t + 5, phase("plan", "end")));
    events.add(ev(4, RunEvent.PHASE, t + 6, phase("act", "start")));
    events.add(ev(5, RunEvent.TOOL_CALL, t + 7, new JsonObject().put("index", 0).put("tool", "knowledge_search")));
    events.add(ev(6, RunEvent.TOOL_RESULT, t + 30, new JsonObject().put("index", 0).put("tool", "knowledge_search")
        .put("success", false).put("durationMs", 20).put("attempts", 3).put("error", "timed out")));
    events.add(ev(7, RunEvent.PHASE, t + 31, phase("act", "end")));
    events.add(ev(8, RunEvent.PHASE, t + 32, phase("plan", "start")));
    events.add(ev(9, RunEvent.PHASE, t + 40, phase("plan", "end")));
    events.add(ev(10, RunEvent.PHASE, t + 41, phase("act", "start")));
    events.add(ev(11, RunEvent.ERROR, t + 60, new JsonObject().put("error", "phase act timed out")));
    JsonArray spans = build(events, 100);
    Map<String, Integer> names = new HashMap<>();
    spans.forEach(o -> names.merge(((JsonObject) o).getString("name"), 1, Integer::sum));
    // run + plan twice + act twice (the second closed by the error) + one tool
    assertEquals(Map.of("run assistant", 1, "phase plan", 2, "phase act", 2, "tool knowledge_search", 1), names);
    JsonObject root = spans.getJsonObject(0);
    assertEquals("error", root.getString("status"));
    assertEquals("phase act timed out", root.getString("error"));
    assertEquals(60.0, root.getDouble("durationMs"));
    JsonObject tool = find(spans, "tool knowledge_search");
    assertEquals("error", tool.getString("status"));
    assertEquals(3L, tool.getJsonObject("attributes").getLong("argus.tool.attempts"));
    // the tool span starts at its tool_call (t + 7) and lasts its reported 20 ms
    assertEquals(t + 7.0, tool.getDouble("startMs"));
    assertEquals(20.0, tool.getDouble("durationMs"));
    // its parent is the first act span
    JsonObject firstAct = spans.stream().map(JsonObject.class::cast)
        .filter(s -> s.getString("name").equals("phase act")).findFirst().orElseThrow();
    assertEquals(firstAct.getString("spanId"), tool.getString("parentSpanId"));
  }

  @Test
  void spansBeyondTheCapAreDroppedAndCounted() {
    List<RunEvent> events = new ArrayList<>();
    long t = 2_000_000;
    events.add(ev(1, RunEvent.RUN, t, new JsonObject().put("profile", "assistant")));
    for (int i = 0; i < 20; i++) {
      events.add(ev(2 + 2L * i, RunEvent.PHASE, t + i, phase("think", "start")));
      events.add(ev(3 + 2L * i, RunEvent.PHASE, t + i, phase("think", "end")));
    }
    events.add(ev(100, RunEvent.FINAL, t + 50, new JsonObject().put("kind", "extractive")));
    JsonArray spans = build(events, 10);
    // the run span plus 9 phase spans; 20 - 9 = 11 dropped
    assertEquals(10, spans.size());
    assertEquals(11L, spans.getJsonObject(0).getJsonObject("attributes").getLong("argus.trace.dropped_spans"));
    assertEquals("ok", spans.getJsonObject(0).getString("status"));
  }

  @Test
  void labelsStayBounded() {
    BoundedTags tags = new BoundedTags(2);
    assertEquals("a", tags.of("a"));
    assertEquals("b", tags.of("b"));
    assertEquals(BoundedTags.OTHER, tags.of("c"));
    assertEquals("a", tags.of("a"));
    assertEquals(BoundedTags.OTHER, tags.of("<script>"));
    assertEquals(BoundedTags.OTHER, tags.of(null));
  }

  @Test
  void configurationIsValidated() {
    assertThrows(ConfigException.class, () -> ObserveConf.from(new Settings("observe",
        new JsonObject().put("otlpEndpoint", "ftp://x"))));
    assertThrows(ConfigException.class, () -> ObserveConf.from(new Settings("observe",
        new JsonObject().put("runRetentionHours", -1))));
    assertThrows(ConfigException.class, () -> ObserveConf.from(new Settings("observe",
        new JsonObject().put("serviceName", "a b"))));
    ObserveConf c = ObserveConf.from(new Settings("observe", new JsonObject().put("runRetentionHours", 2)));
    assertEquals(7_200_000L, c.runRetentionMs());
    assertTrue(!c.otlpEnabled());
  }

  private static JsonObject find(JsonArray spans, String name) {
    return spans.stream().map(JsonObject.class::cast).filter(s -> s.getString("name").equals(name)).findFirst()
        .orElseThrow();
  }
}
