/**
 * Traces of tasks: the submit is a call (its span comes from the call's hooks), and its
 * `traceparent` is kept in the task's stored request; every poll and the finish are spans of
 * their own, linked to the submit's span, so a task's history is one search away from its
 * submit. Used only when traces are on.
 */
import { type Attributes, type Link, type Span, SpanStatusCode } from '@opentelemetry/api';
import type { TaskError, TaskObservation } from '../core/task.js';
import type { Call } from '../gateway/call-lifecycle.js';
import { callTraceparent } from '../gateway/tracing-hooks.js';
import type { Tracing } from '../observability/open-tracing.js';
import { spanContextOf } from '../observability/trace-context.js';
import type { StoredTask } from '../store/tasks-repository.js';

export class TaskTracing {
  constructor(private readonly tracing: Tracing) {}

  /** The submit's `traceparent`, kept with the task. */
  submitTraceparent(call: Call): string | undefined {
    return callTraceparent(call);
  }

  /** A poll of `task`: the span ends when `work` settles. */
  async poll<T>(task: StoredTask, channel: string, polled: { observation?: TaskObservation; error?: unknown }, work: () => Promise<T>): Promise<T> {
    const attributes: Attributes = { ...taskAttributes(task), 'gengate.channel': channel };
    if (polled.observation) {
      attributes['gengate.task.observed'] = polled.observation.status;
      attributes['gengate.task.vendor_status'] = polled.observation.vendorStatus;
    }
    const span = this.tracing.tracer.startSpan('task.poll', { attributes, links: linksOf(task) });
    if (polled.error !== undefined || !polled.observation) span.setStatus({ code: SpanStatusCode.ERROR, message: 'the poll failed; it is retried' });
    try {
      return await work();
    } finally {
      span.end();
    }
  }

  /** `task` reached a terminal status here (started at `startedAt`, epoch ms). */
  finished(task: StoredTask, startedAt: number, error?: TaskError): void {
    const span: Span = this.tracing.tracer.startSpan('task.finish', { attributes: taskAttributes(task), links: linksOf(task), startTime: startedAt });
    if (error) {
      span.setAttribute('gengate.task.error_code', error.code);
      span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    }
    span.end();
  }
}

function taskAttributes(task: StoredTask): Attributes {
  return {
    'gengate.task.id': task.id,
    'gengate.task.status': task.status,
    'gengate.operation': task.operation,
    'gen_ai.request.model': task.model,
    'gengate.surface': task.surface,
  };
}

function linksOf(task: StoredTask): Link[] {
  const submit = spanContextOf(task.request.traceparent);
  return submit ? [{ context: submit, attributes: { 'gengate.link': 'task.submit' } }] : [];
}
