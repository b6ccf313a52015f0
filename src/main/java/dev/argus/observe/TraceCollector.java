package dev.argus.observe;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A span processor that keeps the ended spans of the traces it was told to {@link #watch}, so that a run's trace
 * can be stored with the run; spans of other traces (HTTP requests, bus messages traced by Vert.x) pass by.
 */
final class TraceCollector implements SpanProcessor {

  private final Map<String, List<SpanData>> watched = new ConcurrentHashMap<>();

  /** Starts keeping the spans of {@code traceId}. */
  void watch(String traceId) {
    watched.put(traceId, java.util.Collections.synchronizedList(new ArrayList<>()));
  }

  /** Stops keeping {@code traceId}; returns its ended spans as JSON, in start order. */
  JsonArray take(String traceId) {
    List<SpanData> spans = watched.remove(traceId);
    JsonArray out = new JsonArray();
    if (spans == null) {
      return out;
    }
    List<SpanData> copy;
    synchronized (spans) {
      copy = new ArrayList<>(spans);
    }
    copy.sort(Comparator.comparingLong(SpanData::getStartEpochNanos)
        .thenComparing(s -> s.getParentSpanContext().isValid() ? 1 : 0));
    copy.forEach(s -> out.add(toJson(s)));
    return out;
  }

  static JsonObject toJson(SpanData s) {
    JsonObject attributes = new JsonObject();
    s.getAttributes().forEach((AttributeKey<?> k, Object v) -> attributes.put(k.getKey(), v));
    JsonObject json = new JsonObject()
        .put("spanId", s.getSpanId())
        .put("parentSpanId", s.getParentSpanContext().isValid() ? s.getParentSpanId() : null)
        .put("name", s.getName())
        .put("kind", s.getKind().name().toLowerCase(java.util.Locale.ROOT))
        .put("startMs", s.getStartEpochNanos() / 1_000_000.0)
        .put("endMs", s.getEndEpochNanos() / 1_000_000.0)
        .put("durationMs", Math.round((s.getEndEpochNanos() - s.getStartEpochNanos()) / 1_000.0) / 1_000.0)
        .put("status", s.getStatus().getStatusCode() == StatusCode.ERROR ? "error" : "ok")
        .put("attributes", attributes);
    if (s.getStatus().getStatusCode() == StatusCode.ERROR && !s.getStatus().getDescription().isEmpty()) {
      json.put("error", s.getStatus().getDescription());
    }
    return json;
  }

  @Override
  public void onStart(Context parentContext, ReadWriteSpan span) {
  }

  @Override
  public boolean isStartRequired() {
    return false;
  }

  @Override
  public void onEnd(ReadableSpan span) {
    List<SpanData> spans = watched.get(span.getSpanContext().getTraceId());
    if (spans != null) {
      spans.add(span.toSpanData());
    }
  }

  @Override
  public boolean isEndRequired() {
    return true;
  }

  @Override
  public CompletableResultCode shutdown() {
    watched.clear();
    return CompletableResultCode.ofSuccess();
  }
}
