/**
 * OpenTelemetry traces, off unless the standard OTLP variables ask for them
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`; `OTEL_SDK_DISABLED=true`
 * or `OTEL_TRACES_EXPORTER=none` keep them off). When off, `openTracing` returns undefined and
 * the SDK is not even loaded; nothing else of tracing is installed.
 */
import { DEFAULT_TRACING_SETTINGS, type Tracing, type TracingSettings } from './tracing-settings.js';

export type { Tracing, TracingSettings };

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
