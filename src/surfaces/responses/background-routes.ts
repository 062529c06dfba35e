/**
 * The HTTP side of background responses, called by the Responses routes: create (`background:
 * true` — the request is checked and the response saved `queued` and its durable run written
 * before the answer, which is that `queued` object, or with `stream: true` the run's events as
 * they are stored, while the run goes on whether or not the client stays), the replay of a
 * background stream (`GET /v1/responses/{id}?stream=true&starting_after=N`: the stored events
 * after N, then the live ones until the terminal one), and cancel (a queued or running response
 * ends `cancelled`, its upstream call aborted; again answers the same; a finished one is refused
 * as OpenAI refuses it). Lookups are the key's account's own: another's id is unknown (404).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { escapeControlCharacters } from '../../core/client-strings.js';
import { GatewayError, invalidRequest } from '../../core/errors.js';
import { nowSeconds } from '../../core/ids.js';
import type { ResponseItem, StoredResponse } from '../../core/responses.js';
import type { GatewayServices } from '../../gateway/contract.js';
import { requestKey } from '../../http/authenticate-first.js';
import { clientSignal, sendSse } from '../../http/reply-helpers.js';
import { cancelledObject, frameOfStored, terminalEvent, withStatus } from './background-objects.js';
import { parseResponsesRequest } from './parse-responses-request.js';
import { parseContextFor } from './stored-item-references.js';
import { responseObject } from './render-response-object.js';
import { newResponseId } from './response-item-ids.js';
import type { PeekedResponsesRequest, RenderContext } from './seams.js';

/** Longest id echoed in a message; a path segment may be longer. */
const MAX_ECHOED_ID_CHARS = 256;
/** `starting_after` beyond this is no sequence number any response reaches. */
const MAX_SEQUENCE = 2 ** 31 - 1;

function responseNotFound(id: string): GatewayError {
  const shown = escapeControlCharacters(id.length > MAX_ECHOED_ID_CHARS ? `${id.slice(0, MAX_ECHOED_ID_CHARS)}…` : id);
  return new GatewayError('not_found', `Response with id '${shown}' not found.`);
}

/** `POST /v1/responses` with `background: true`. */
export async function createBackgroundResponse(
  services: GatewayServices,
  request: FastifyRequest,
  reply: FastifyReply,
  peeked: PeekedResponsesRequest,
): Promise<FastifyReply> {
  if (!peeked.store) {
    throw new GatewayError(
      'invalid_request',
      'Background mode requires store=true: a background response is stored so that it can be polled. Send store: true, or leave store out.',
      {
        param: 'background',
        code: 'unsupported_parameter',
      },
    );
  }
  const key = requestKey(request);
  services.checkAccess(key, peeked.model, 'chat');
  await services.responses.mayStore(key);
  let history: ResponseItem[] = [];
  if (peeked.previousResponseId !== undefined) {
    const found = await services.responses.conversation(key, peeked.previousResponseId);
    if (!found) {
      throw new GatewayError('invalid_request', `Previous response with id '${peeked.previousResponseId}' not found.`, {
        param: 'previous_response_id',
        code: 'previous_response_not_found',
      });
    }
    history = found;
  }
  // Checked now, so a bad request is the client's 400 rather than a failed response later; the run parses it again.
  const parsed = parseResponsesRequest(request.body, await parseContextFor(services, key, request.body, history));
  const context: RenderContext = {
    responseId: newResponseId(),
    createdAt: nowSeconds(),
    model: peeked.model,
    echo: parsed.echo,
    provider: '',
    sealReasoning: (reasoning) => services.responses.seal(reasoning),
    include: parsed.include,
    includeObfuscation: false,
    toolNamespaces: parsed.toolNamespaces,
  };
  if (peeked.previousResponseId !== undefined) context.previousResponseId = peeked.previousResponseId;
  const object = withStatus(responseObject(context, { status: 'in_progress', output: [] }), 'queued');
  const stored: StoredResponse = {
    id: context.responseId,
    accountId: key.accountId ?? `key:${key.id}`,
    model: peeked.model,
    createdAt: context.createdAt,
    status: 'queued',
    inputItems: parsed.inputItems,
    outputItems: [],
    object,
    expiresAt: 0,
  };
  if (peeked.previousResponseId !== undefined) stored.previousResponseId = peeked.previousResponseId;
  await services.responses.save(key, stored);
  try {
    await services.background.create(key, { id: stored.id, requestId: String(request.id), body: request.body, stream: peeked.stream });
  } catch (error) {
    // Without its run the response would stay queued for ever.
    await services.responses.remove(key, stored.id).catch(() => undefined);
    throw error;
  }
  if (!peeked.stream) return reply.send(object);
  return sendSse(reply, followedFrames(services, stored.id, -1, clientSignal(request, reply)));
}

async function* followedFrames(services: GatewayServices, id: string, after: number, signal: AbortSignal): AsyncGenerator<string> {
  for await (const event of services.background.follow(id, after, signal)) yield frameOfStored(event);
}

function startingAfter(query: unknown): number {
  const value = (query as Record<string, unknown> | undefined)?.starting_after;
  if (value === undefined) return -1;
  const text = Array.isArray(value) ? value[value.length - 1] : value;
  if (typeof text !== 'string' || !/^\d{1,10}$/.test(text) || Number(text) > MAX_SEQUENCE) {
    throw invalidRequest('starting_after: expected the sequence_number of an event of this response (an integer from 0)', 'starting_after');
  }
  return Number(text);
}

/** `GET /v1/responses/{id}?stream=true[&starting_after=N]`. */
export async function streamBackgroundResponse(
  services: GatewayServices,
  request: FastifyRequest<{ Params: { id: string } }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const after = startingAfter(request.query);
  const stored = await services.responses.get(requestKey(request), request.params.id);
  if (!stored) throw responseNotFound(request.params.id);
  const run = await services.background.get(stored.id);
  if (!run) {
    throw stored.object.background === true
      ? invalidRequest("stream: this background response's events are no longer kept; retrieve it without stream", 'stream')
      : invalidRequest('This response cannot be streamed because it was not created with background=true.', 'stream');
  }
  if (!run.stream) throw invalidRequest('This response cannot be streamed because it was not created with stream=true.', 'stream');
  return sendSse(reply, followedFrames(services, stored.id, after, clientSignal(request, reply)));
}

/** `POST /v1/responses/{id}/cancel`. */
export async function cancelBackgroundResponse(
  services: GatewayServices,
  request: FastifyRequest<{ Params: { id: string } }>,
): Promise<Record<string, unknown>> {
  const key = requestKey(request);
  const stored = await services.responses.get(key, request.params.id);
  if (!stored) throw responseNotFound(request.params.id);
  const run = await services.background.get(stored.id);
  if (!run) throw invalidRequest('Cannot cancel a synchronous response.');
  if (run.status === 'queued' || run.status === 'in_progress') {
    const object = cancelledObject(stored.object);
    if (await services.background.cancel(stored.id, { object, terminal: terminalEvent(object) })) {
      await services.responses.save(key, { ...stored, status: 'cancelled', object, outputItems: [] });
      return object;
    }
  }
  // Ended meanwhile, or before: as it ended.
  const ended = await services.background.get(stored.id);
  if (ended?.status === 'cancelled') return ended.finalObject ?? cancelledObject(stored.object);
  const status = ended?.status ?? stored.status;
  throw invalidRequest(`Cannot cancel ${status === 'incomplete' ? 'an' : 'a'} ${status} response.`);
}
