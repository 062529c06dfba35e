/**
 * OpenTelemetry traces, off unless the standard OTLP variables ask for them
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`; `OTEL_SDK_DISABLED=true`
 * or `OTEL_TRACES_EXPORTER=none` keep them off). When off, `openTracing` returns undefined and
 * the SDK is not even loaded; nothing else of tracing is installed.
 */
import type { Tracer } from '@opentelemetry/api';

export interface TracingSettings {
  /** Prompts as span events (off: spans carry no content). */
  captureContent: boolean;
  /** The most characters of content one event keeps. */
  contentMaxChars: number;
}

export const DEFAULT_TRACING_SETTINGS: TracingSettings = { captureContent: false, contentMaxChars: 4096 };

export interface Tracing {
  tracer: Tracer;
  settings: TracingSettings;
  /** Sends the spans ended so far. */
  flush(): Promise<void>;
  /** Sends what is left and stops the exporter (the gateway's close calls it, after the drain). */
  shutdown(): Promise<void>;
}

type Env = Record<string, string | undefined>;

/** Whether the environment asks for traces. */
export function tracingWanted(env: Env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
}

/** The tracer, or undefined when the environment does not ask for traces. */
export async function openTracing(env: Env = process.env, settings: Partial<TracingSettings> = {}): Promise<Tracing | undefined> {
  if (!tracingWanted(env)) return undefined;
  const { startTracerProvider } = await import('./tracer-provider.js');
  return startTracerProvider({ ...DEFAULT_TRACING_SETTINGS, ...settings });
}
