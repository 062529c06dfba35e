/**
 * Traces of calls (`docs/observability.md`): one span per call, from its start to its end, and
 * one child span per upstream attempt, whose context goes upstream as `traceparent` (a failover
 * shows as several attempt children). A client's `traceparent` makes the call span its child.
 * Attributes follow the OpenTelemetry GenAI conventions; prompts and completions are recorded
 * only when `tracing.captureContent` says so. Installed only when traces are on; the client's
 * `traceparent` is read from the call's request (`CallOrigin.http`), kept by nothing else.
 */
import { type Attributes, type Context, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Operation } from '../core/operation.js';
import type { RouteInfo } from '../core/route.js';
import type { Tracing } from '../observability/open-tracing.js';
import { contextFromTraceparent, traceparentOf } from '../observability/trace-context.js';
import type { Call, LifecycleHooks } from './call-lifecycle.js';

interface CallSpans {
  span: Span;
  context: Context;
  attempts: Map<RouteInfo, Span>;
}

const spans = new WeakMap<Call, CallSpans>();

/** GenAI `gen_ai.operation.name` of each operation (images, video and tasks generate content). */
const GEN_AI_OPERATION: Record<Operation, string> = {
  chat: 'chat',
  embed: 'embeddings',
  'image.generate': 'generate_content',
  'image.edit': 'generate_content',
  'image.remix': 'generate_content',
  'image.blend': 'generate_content',
  'image.imagine': 'generate_content',
  'image.describe': 'generate_content',
  'image.action': 'generate_content',
  'video.generate': 'generate_content',
  'task.get': 'generate_content',
};

/** GenAI `gen_ai.provider.name` where the convention names the vendor otherwise than the gateway does. */
const GEN_AI_PROVIDER: Record<string, string> = { gemini: 'gcp.gemini' };

export function tracingHooks(tracing: Tracing): LifecycleHooks {
  const { tracer, settings } = tracing;

  const spansOf = (call: Call): CallSpans => {
    let entry = spans.get(call);
    if (entry) return entry;
    const { subject } = call;
    const operation = GEN_AI_OPERATION[subject.operation];
    // The client's `traceparent`, read from the call's own request (a batch's sub-calls share it).
    const parent = contextFromTraceparent(subject.http?.headers.traceparent) ?? ROOT_CONTEXT;
    const attributes: Attributes = {
      'gen_ai.operation.name': operation,
      'gen_ai.request.model': subject.model,
      'gengate.operation': subject.operation,
      'gengate.surface': subject.surface,
      'gengate.key.id': subject.key.id,
      'gengate.request.id': subject.requestId,
      'gengate.stream': subject.stream,
    };
    if (subject.taskReservation) attributes['gengate.task.id'] = subject.taskReservation.id;
    const span = tracer.startSpan(
      `${operation} ${subject.model}`,
      { kind: SpanKind.SERVER, attributes, startTime: performance.timeOrigin + call.startedAt },
      parent,
    );
    entry = { span, context: trace.setSpan(parent, span), attempts: new Map() };
    spans.set(call, entry);
    if (settings.captureContent) recordPrompt(span, subject, settings.contentMaxChars);
    return entry;
  };

  return {
    admit: (call) => {
      spansOf(call);
    },
    attemptStart: (call, route) => {
      const entry = spansOf(call);
      const operation = GEN_AI_OPERATION[call.subject.operation];
      const span = tracer.startSpan(
        `${operation} ${route.upstreamModel}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'gen_ai.operation.name': operation,
            'gen_ai.provider.name': GEN_AI_PROVIDER[route.provider] ?? route.provider,
            'gen_ai.request.model': route.upstreamModel,
            'gengate.channel': route.channel,
            'gengate.attempt': route.attempts,
          },
        },
        entry.context,
      );
      entry.attempts.set(route, span);
      return { traceparent: traceparentOf(span.spanContext()) };
    },
    attemptEnd: (call, route, error) => {
      const span = spans.get(call)?.attempts.get(route);
      if (!span) return;
      spans.get(call)?.attempts.delete(route);
      if (error) {
        span.setAttribute('error.type', error.errorType);
        span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
      } else {
        span.setAttribute('gen_ai.response.model', route.upstreamModel);
      }
      span.end();
    },
    end: (call, ending) => {
      const entry = spansOf(call);
      const { span } = entry;
      for (const open of entry.attempts.values()) open.end();
      const attributes: Attributes = { 'gengate.outcome': ending.outcome, 'gengate.cost_nusd': ending.costNusd };
      const { route, usage } = ending;
      if (route) {
        attributes['gen_ai.provider.name'] = GEN_AI_PROVIDER[route.provider] ?? route.provider;
        attributes['gen_ai.response.model'] = route.upstreamModel;
        attributes['gengate.channel'] = route.channel;
        attributes['gengate.attempts'] = route.attempts;
      }
      if (usage) {
        attributes['gen_ai.usage.input_tokens'] = usage.inputTokens;
        attributes['gen_ai.usage.output_tokens'] = usage.outputTokens;
      }
      if (ending.units > 0) attributes['gengate.units'] = ending.units;
      span.setAttributes(attributes);
      if (ending.errorType) {
        span.setAttribute('error.type', ending.errorType);
        span.setStatus({ code: SpanStatusCode.ERROR, message: ending.error?.message });
      }
      if (call.firstTokenAt !== undefined) span.addEvent('gen_ai.first_token', performance.timeOrigin + call.firstTokenAt);
      span.end();
    },
  };
}

/** The `traceparent` of a call's span (a task keeps it, so that its polls and its finish link to its submit). */
export function callTraceparent(call: Call): string | undefined {
  const entry = spans.get(call);
  return entry ? traceparentOf(entry.span.spanContext()) : undefined;
}

/**
 * The prompt as a span event, cut at `maxChars`: the request as the client sent it, or its
 * parsed form, or an image or embeddings request's prompt and inputs.
 */
function recordPrompt(span: Span, subject: Call['subject'], maxChars: number): void {
  const fields = subject as unknown as {
    raw?: { body?: unknown };
    canonical?: () => { messages?: unknown; system?: unknown };
    request?: { prompt?: unknown; inputs?: unknown };
  };
  let content: unknown;
  if (fields.raw?.body !== undefined) content = fields.raw.body;
  else if (typeof fields.canonical === 'function') {
    try {
      const parsed = fields.canonical();
      content = { system: parsed.system, messages: parsed.messages };
    } catch {
      // A request that does not parse is refused on its own path; its trace keeps no prompt.
      return;
    }
  } else content = fields.request?.prompt ?? fields.request?.inputs;
  if (content === undefined) return;
  span.addEvent('gen_ai.content.prompt', { 'gen_ai.prompt': boundedText(content, maxChars) });
}

/** A value as text, at most `maxChars` characters. */
export function boundedText(value: unknown, maxChars: number): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  } catch {
    text = '';
  }
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
}
