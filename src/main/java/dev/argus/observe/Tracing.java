package dev.argus.observe;

import dev.argus.config.ObserveConf;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SdkTracerProviderBuilder;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The process's OpenTelemetry SDK: a tracer provider whose spans go to the {@link TraceCollector} (run traces stored
 * with their runs) and, when {@code observe.otlpEndpoint} is set, to an OTLP/HTTP exporter in batches (the JDK's
 * HTTP client sends them, off the event loop). Not registered as the global OpenTelemetry: tests start several.
 */
public final class Tracing implements AutoCloseable {

  public static final String INSTRUMENTATION = "dev.argus.observe";

  private final OpenTelemetrySdk sdk;
  private final TraceCollector collector = new TraceCollector();
  private final boolean exporting;

  private Tracing(ObserveConf conf) {
    SdkTracerProviderBuilder provider = SdkTracerProvider.builder()
        .setResource(Resource.getDefault().merge(Resource.create(
            Attributes.of(AttributeKey.stringKey("service.name"), conf.serviceName()))))
        .addSpanProcessor(collector);
    exporting = conf.otlpEnabled();
    if (exporting) {
      provider.addSpanProcessor(BatchSpanProcessor.builder(OtlpHttpSpanExporter.builder()
              .setEndpoint(conf.otlpEndpoint()).setTimeout(Duration.ofMillis(conf.otlpTimeoutMs())).build())
          .setScheduleDelay(Duration.ofSeconds(1)).build());
    }
    sdk = OpenTelemetrySdk.builder().setTracerProvider(provider.build()).build();
  }

  public static Tracing create(ObserveConf conf) {
    return new Tracing(conf);
  }

  public OpenTelemetry openTelemetry() {
    return sdk;
  }

  Tracer tracer() {
    return sdk.getTracer(INSTRUMENTATION);
  }

  TraceCollector collector() {
    return collector;
  }

  public boolean exporting() {
    return exporting;
  }

  /** Sends the spans still batched (blocking: call off the event loop). */
  void flush() {
    sdk.getSdkTracerProvider().forceFlush().join(10, TimeUnit.SECONDS);
  }

  /** Flushes and stops (blocking: call off the event loop). */
  @Override
  public void close() {
    sdk.getSdkTracerProvider().shutdown().join(10, TimeUnit.SECONDS);
  }
}
