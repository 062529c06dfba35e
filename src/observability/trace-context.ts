/** W3C trace context (`traceparent`) in and out: a client's parent, an upstream's, a task's stored link. */
import { type Context, ROOT_CONTEXT, type SpanContext, trace } from '@opentelemetry/api';
import { parseTraceParent } from '@opentelemetry/core';

/** The longest `traceparent` read (version 00 is 55 characters; later versions may append fields). */
const MAX_TRACEPARENT_CHARS = 256;

/** A `traceparent` value's span context; undefined when absent or malformed. */
export function spanContextOf(value: string | string[] | undefined): SpanContext | undefined {
  if (typeof value !== 'string' || value.length > MAX_TRACEPARENT_CHARS) return undefined;
  const parsed = parseTraceParent(value.trim());
  return parsed ? { ...parsed, isRemote: true } : undefined;
}

/** A `traceparent` value as a parent context; undefined when absent or malformed. */
export function contextFromTraceparent(value: string | string[] | undefined): Context | undefined {
  const parent = spanContextOf(value);
  return parent ? trace.setSpanContext(ROOT_CONTEXT, parent) : undefined;
}

/** The `traceparent` value naming a span as the parent. */
export function traceparentOf(context: SpanContext): string {
  return `00-${context.traceId}-${context.spanId}-0${(context.traceFlags & 1).toString(16)}`;
}
