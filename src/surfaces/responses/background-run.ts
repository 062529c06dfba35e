/**
 * One attempt at a background response, run by the durable runs (`services.background`) with no
 * client attached: the stored request is parsed again (with the conversation it continues), the
 * stored response moves to `in_progress`, the chat call streams through the Responses renderer,
 * and each frame is stored as an event for pollers and followers. The response is saved in full
 * before its terminal event is written (the renderer's `beforeTerminal`), and the run ends with
 * that event in one store transaction, so a follower that sees the end can read the result.
 *
 * A cancel ends the run in the store and aborts this attempt's signal: the attempt then writes
 * nothing more (the upstream call is aborted with it, and billed for what it produced, as any
 * cut call). A re-run after a crash starts the answer over: its events continue the stream after
 * the ones the cut attempt stored (sequence numbers never repeat), without a second
 * `response.created`, and its `response.in_progress` tells a follower that output starts again.
 */
import { GatewayError, toGatewayError } from '../../core/errors.js';
import type { StoredResponse } from '../../core/responses.js';
import type { BackgroundResponseJob, GatewayServices } from '../../gateway/contract.js';
import { cancelledObject, eventOfFrame, failedObject, restated, statusOf, TERMINAL_EVENT_TYPES, terminalEvent, withStatus } from './background-objects.js';
import { parseResponsesRequest } from './parse-responses-request.js';
import { parseContextFor } from './stored-item-references.js';
import { forClient, toResponseError } from './render-response-object.js';
import { renderResponse } from './render-response.js';
import { renderResponsesStream } from './render-responses-stream.js';
import type { RenderContext, RenderedResponse } from './seams.js';

/** Statuses only a finished answer leaves (a failure or a cancel is written by the run's end itself). */
const FINISHED: ReadonlySet<string> = new Set(['completed', 'incomplete']);

export function backgroundRunner(services: GatewayServices): (job: BackgroundResponseJob) => Promise<void> {
  return (job) => runBackgroundResponse(services, job);
}

async function runBackgroundResponse(services: GatewayServices, job: BackgroundResponseJob): Promise<void> {
  const { key } = job;
  const stored = await services.responses.get(key, job.id);
  if (!stored) {
    // Deleted (or expired) before it ran: nothing to answer into.
    await endDeleted(job, cancelledObject({ id: job.id, object: 'response' }));
    return;
  }
  if (job.attempt > 1 && FINISHED.has(stored.status)) {
    // The cut attempt's answer was saved before its process died: it ends the run, and is not asked (nor billed) again.
    const shown = forClient({ object: stored.object, outputItems: stored.outputItems }, []);
    await end(services, job, stored, { object: stored.object, outputItems: stored.outputItems }, { type: `response.${stored.status}`, response: shown });
    return;
  }
  if (job.refusal) {
    await endFailed(services, job, stored, job.refusal);
    return;
  }
  try {
    await run(services, job, stored);
  } catch (error) {
    if (job.signal.aborted) return;
    await endFailed(services, job, stored, toResponseError(toGatewayError(error)));
  }
}

async function run(services: GatewayServices, job: BackgroundResponseJob, stored: StoredResponse): Promise<void> {
  const { key } = job;
  let history: Awaited<ReturnType<GatewayServices['responses']['conversation']>> = [];
  if (stored.previousResponseId !== undefined) {
    history = await services.responses.conversation(key, stored.previousResponseId);
    if (!history) throw new GatewayError('invalid_request', `Previous response with id '${stored.previousResponseId}' is no longer stored.`);
  }
  const parsed = parseResponsesRequest(job.body, await parseContextFor(services, key, job.body, history));
  if (!(await stillStored(services, job))) {
    await endDeleted(job, cancelledObject(stored.object));
    return;
  }
  await services.responses.save(key, restated(stored, withStatus(stored.object, 'in_progress')));
  const outcome = await services.chat({
    key,
    surface: 'responses',
    requestId: job.requestId,
    model: stored.model,
    stream: true,
    // Streamed upstream whatever the client asked: its events are stored as they come, and a cancel cuts it at once.
    canonical: () => ({ ...parsed.canonical, stream: true }),
    signal: job.signal,
  });
  if (outcome.kind === 'passthrough') throw new Error('a Responses call was relayed untranslated');
  const context: RenderContext = {
    responseId: stored.id,
    createdAt: stored.createdAt,
    model: stored.model,
    echo: parsed.echo,
    provider: outcome.route.provider,
    sealReasoning: (reasoning) => services.responses.seal(reasoning),
    include: parsed.include,
    // No client reads these frames as they are made: padding against length side channels has nothing to guard.
    includeObfuscation: false,
    toolNamespaces: parsed.toolNamespaces,
  };
  if (stored.previousResponseId !== undefined) context.previousResponseId = stored.previousResponseId;
  let saved: RenderedResponse | undefined;
  const save = async (rendered: RenderedResponse): Promise<void> => {
    if (job.signal.aborted) throw new Error('background run stopped');
    if (!(await stillStored(services, job))) throw new Error('the response was deleted while it ran');
    const object = withStatus(rendered.object, statusOf(rendered.object));
    await services.responses.save(key, restated(stored, object, rendered.outputItems));
    saved = { object, outputItems: rendered.outputItems };
  };
  if (outcome.kind === 'response') {
    const rendered = renderResponse(outcome.response, context);
    await save(rendered);
    const shown = forClient(saved ?? rendered, parsed.include);
    await end(services, job, stored, saved ?? rendered, { type: `response.${statusOf(shown) === 'completed' ? 'completed' : 'incomplete'}`, response: shown });
    return;
  }
  for await (const frame of renderResponsesStream(outcome.events, context, save)) {
    if (job.signal.aborted) return;
    const event = eventOfFrame(frame);
    if (!event) continue;
    // A re-run continues the stream the cut attempt began: the response was created once.
    if (event.type === 'response.created' && job.attempt > 1) continue;
    if (TERMINAL_EVENT_TYPES.has(event.type)) {
      const shown = (event.response ?? {}) as Record<string, unknown>;
      // The renderer ends with `response.failed` when storing the answer failed: the stored state is then the failure.
      const final = saved && statusOf(saved.object) === statusOf(shown) ? saved : { object: withStatus(shown, statusOf(shown)), outputItems: [] };
      await end(services, job, stored, final, event);
      return;
    }
    // Only a response created with `stream: true` can be streamed again: the others keep just their terminal event.
    if (job.stream) await job.emit(event);
  }
}

/** Ends the run with its terminal event; when a cancel won meanwhile, the stored response is put back to cancelled. */
async function end(
  services: GatewayServices,
  job: BackgroundResponseJob,
  stored: StoredResponse,
  final: RenderedResponse,
  terminal: { type: string } & Record<string, unknown>,
): Promise<void> {
  if (!(await stillStored(services, job))) {
    await endDeleted(job, cancelledObject(stored.object));
    return;
  }
  if (statusOf(final.object) === 'failed') await services.responses.save(job.key, restated(stored, final.object, final.outputItems));
  if (await job.finish({ status: statusOf(final.object), object: final.object, terminal })) return;
  const run = await services.background.get(job.id);
  if (run?.status === 'cancelled') {
    await services.responses.save(job.key, restated(stored, run.finalObject ?? cancelledObject(stored.object), []));
  }
}

/** A client may delete a background response while it runs: nothing is saved again then (no resurrection), and the run ends cancelled. */
async function stillStored(services: GatewayServices, job: BackgroundResponseJob): Promise<boolean> {
  return (await services.responses.get(job.key, job.id)) !== undefined;
}

async function endDeleted(job: BackgroundResponseJob, object: Record<string, unknown>): Promise<void> {
  await job.finish({ status: 'cancelled', object, terminal: terminalEvent(object) });
}

async function endFailed(
  services: GatewayServices,
  job: BackgroundResponseJob,
  stored: StoredResponse,
  error: { code: string; message: string },
): Promise<void> {
  const object = failedObject(stored.object, error);
  await end(services, job, stored, { object, outputItems: [] }, terminalEvent(object));
}
