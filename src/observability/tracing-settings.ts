/** What traces record, and the tracer the gateway hands its hooks (`open-tracing.ts` opens it). */
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
