/**
 * The tracing SDK, loaded only when traces are on: a tracer provider of the gateway's own
 * (nothing is registered globally), a batch processor and the OTLP/HTTP exporter (JSON), which
 * read the other `OTEL_*` variables themselves (sampler, headers, timeouts, batch sizes).
 */
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { Tracing, TracingSettings } from './tracing-settings.js';

/** How long a stopping gateway waits for its last spans to be sent (a collector that is away must not hold the exit). */
const SHUTDOWN_WAIT_MS = 3_000;

export function startTracerProvider(settings: TracingSettings): Tracing {
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the default name.
  const resource = resourceFromAttributes({ 'service.name': 'gengate' }).merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  let closed: Promise<void> | undefined;
  return {
    tracer: provider.getTracer('gengate'),
    settings,
    flush: () => provider.forceFlush(),
    shutdown: () => (closed ??= withinWait(provider.shutdown())),
  };
}

function withinWait(work: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, SHUTDOWN_WAIT_MS);
    timer.unref();
  });
  return Promise.race([work, waited]).finally(() => clearTimeout(timer));
}
