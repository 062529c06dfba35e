/**
 * The Responses surface's routes (OpenAI's Bearer key and error shape): create a response (JSON
 * or SSE) through the canonical chat form on any upstream — or, on a channel of OpenAI itself,
 * relayed untranslated under the relay policy (relay-request.ts, relay-answer.ts) — with the
 * conversation state the gateway keeps (`previous_response_id`, `store`); retrieve, delete and cancel a stored one, list
 * its input items, and count a request's input tokens. A stored response is saved before the
 * client sees its end (the JSON answer, or the stream's terminal event), so a follow-up sent the
 * instant it ends finds it, on any replica sharing the database.
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeControlCharacters } from '../../core/client-strings.js';
import { GatewayError, invalidRequest } from '../../core/errors.js';
import { nowSeconds } from '../../core/ids.js';
import { once } from '../../core/once.js';
import type { PassthroughResponse } from '../../core/passthrough.js';
import type { Json } from '../../core/validate.js';
import type { AuthenticatedKey } from '../../core/key.js';
import type { RouteInfo } from '../../core/route.js';
import type { ResponseItem, StoredResponse, StoredResponseStatus } from '../../core/responses.js';
import type { GatewayServices } from '../../gateway/contract.js';
import { authenticateFirst, requestKey } from '../../http/authenticate-first.js';
import { bearerToken, clientSignal, sendSse, setRouteHeaders, useErrorRenderer } from '../../http/reply-helpers.js';
import { renderOpenAIError } from '../openai/render-error.js';
import { cancelBackgroundResponse, createBackgroundResponse, streamBackgroundResponse } from './background-routes.js';
import { backgroundRunner } from './background-run.js';
import { estimateResponsesInputTokens } from './estimate-responses-input-tokens.js';
import { parseResponsesRequest } from './parse-responses-request.js';
import { newResponseId } from './response-item-ids.js';
import { peekResponsesRequest } from './peek-responses-request.js';
import { RelayedAnswer, type RelayContext } from './relay-answer.js';
import { relayRequest } from './relay-request.js';
import { type KeepResponse, relayResponsesJson, relayResponsesStream } from './relay-responses-answer.js';
import { responsesStreamErrorFrame } from './render-stream-error.js';
import { parseContextFor } from './stored-item-references.js';
import { forClient } from './render-response-object.js';
import { renderResponse } from './render-response.js';
import { renderResponsesStream } from './render-responses-stream.js';
import { parseInputItemsQuery, parseRetrieveQuery, type InputItemsQuery } from './parse-query.js';
import type { PeekedResponsesRequest, RenderContext, RenderedResponse } from './seams.js';

const STATUSES: readonly StoredResponseStatus[] = ['queued', 'in_progress', 'completed', 'incomplete', 'failed', 'cancelled'];

/** `resp_` and 48 hexadecimal characters (192 random bits), as OpenAI's look. */

/** Longest id echoed in a message; a path segment may be longer. */
const MAX_ECHOED_ID_CHARS = 256;

function responseNotFound(id: string): GatewayError {
  const shown = escapeControlCharacters(id.length > MAX_ECHOED_ID_CHARS ? `${id.slice(0, MAX_ECHOED_ID_CHARS)}…` : id);
  return new GatewayError('not_found', `Response with id '${shown}' not found.`);
}

/** The history `previous_response_id` continues: empty without one; an unknown (or another account's) id is the client's 400. */
async function historyOf(services: GatewayServices, key: AuthenticatedKey, previousResponseId: string | undefined): Promise<ResponseItem[]> {
  if (previousResponseId === undefined) return [];
  const history = await services.responses.conversation(key, previousResponseId);
  if (!history) {
    throw new GatewayError('invalid_request', `Previous response with id '${previousResponseId}' not found.`, {
      param: 'previous_response_id',
      code: 'previous_response_not_found',
    });
  }
  return history;
}

async function createResponse(services: GatewayServices, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const peeked = peekResponsesRequest(request.body);
  if (peeked.background) return createBackgroundResponse(services, request, reply, peeked);
  const key = requestKey(request);
  if (peeked.store) await services.responses.mayStore(key);
  const history = await historyOf(services, key, peeked.previousResponseId);
  const parseContext = await parseContextFor(services, key, request.body, history);
  // Parsed only when a channel translates: OpenAI itself gets the client's request as it came (hosted tools included).
  const parse = once(() => parseResponsesRequest(request.body, parseContext));
  // Built only when a channel relays (as `parse` only when one translates): a translated call never pays for both.
  const relayed = once(() => relayRequest(request.body as Json, parseContext, peeked.store));
  const outcome = await services.chat({
    key,
    surface: 'responses',
    requestId: String(request.id),
    model: peeked.model,
    stream: peeked.stream,
    canonical: () => parse().canonical,
    // Documents are checked against the gateway's limits once translated; a relayed request's are the upstream's to check.
    documents: [],
    raw: {
      dialect: 'responses',
      get body() {
        return relayed().body;
      },
      model: peeked.model,
      stream: peeked.stream,
      errorEvent: (error) => responsesStreamErrorFrame(error),
    },
    signal: clientSignal(request, reply),
    http: request,
  });
  if (outcome.kind === 'passthrough') {
    setRouteHeaders(reply, outcome.route);
    return relayAnswer(services, key, peeked, relayed().inputItems, outcome.response, reply);
  }
  const parsed = parse();
  setRouteHeaders(reply, withParseWarnings(outcome.route, parsed.warnings));
  const context: RenderContext = {
    responseId: newResponseId(),
    createdAt: nowSeconds(),
    model: peeked.model,
    echo: parsed.echo,
    provider: outcome.route.provider,
    sealReasoning: (reasoning) => services.responses.seal(reasoning),
    include: parsed.include,
    includeObfuscation: parsed.includeObfuscation,
    toolNamespaces: parsed.toolNamespaces,
  };
  if (peeked.previousResponseId !== undefined) context.previousResponseId = peeked.previousResponseId;
  const save = async (rendered: RenderedResponse): Promise<void> => {
    if (!peeked.store) return;
    await services.responses.save(key, storedResponse(key, context, parsed.inputItems, rendered));
  };
  if (outcome.kind === 'response') {
    const rendered = renderResponse(outcome.response, context);
    await save(rendered);
    return reply.send(forClient(rendered, parsed.include));
  }
  const frames = renderResponsesStream(outcome.events, context, save)[Symbol.asyncIterator]();
  // The renderer fails its first frame when the stream failed before it started: still an HTTP error, not a 200 stream.
  const first = await frames.next();
  return sendSse(reply, startingWith(first, frames));
}

/**
 * OpenAI's own answer, relayed: ids made the gateway's and the response kept (when `store`)
 * before the client sees its end, as a translated answer is.
 */
async function relayAnswer(
  services: GatewayServices,
  key: AuthenticatedKey,
  peeked: PeekedResponsesRequest,
  inputItems: ResponseItem[],
  response: PassthroughResponse,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const context: RelayContext = {
    responseId: newResponseId(),
    model: peeked.model,
    store: peeked.store,
    include: clientInclude(reply.request.body),
    seal: (reasoning) => services.responses.seal(reasoning),
  };
  if (peeked.previousResponseId !== undefined) context.previousResponseId = peeked.previousResponseId;
  const answer = new RelayedAnswer(context);
  const keep: KeepResponse = async (object, outputItems) => {
    if (!peeked.store) return;
    // Stored as of now (the retention counts from the gateway's clock); the object keeps OpenAI's `created_at`.
    await services.responses.save(key, storedResponse(key, { ...context, createdAt: nowSeconds() }, inputItems, { object, outputItems }));
  };
  if (response.upstreamRequestId !== undefined) reply.header('x-gengate-upstream-request-id', response.upstreamRequestId);
  reply.code(response.status);
  const contentType = response.headers['content-type'];
  if (peeked.stream && (contentType === undefined || contentType.includes('text/event-stream'))) {
    return sendSse(reply, relayResponsesStream(asChunks(response.body), answer, keep));
  }
  const relayed = await relayResponsesJson(response.body, answer, keep);
  if (Buffer.isBuffer(relayed) && contentType !== undefined) reply.header('content-type', contentType);
  return reply.send(relayed);
}

/** The client's `include` strings (the upstream checks the list itself). */
function clientInclude(body: unknown): string[] {
  const include = (body as Json).include;
  return Array.isArray(include) ? include.filter((value): value is string => typeof value === 'string') : [];
}

function asChunks(body: Readable | Buffer): AsyncIterable<Buffer | string> | Iterable<Buffer> {
  return Buffer.isBuffer(body) ? [body] : (body as AsyncIterable<Buffer | string>);
}

/** The route's warnings after what the parser left out (hosted tools), for `x-gengate-warnings`. */
function withParseWarnings(route: RouteInfo, warnings: readonly string[]): RouteInfo {
  return warnings.length === 0 ? route : { ...route, warnings: [...warnings, ...(route.warnings ?? [])] };
}

/**
 * The stream again with its first result, already read, put back in front. An iterator of its
 * own rather than a generator: a generator would add an await and a promise to every frame.
 */
function startingWith(first: IteratorResult<string>, rest: AsyncIterator<string>): AsyncIterable<string> {
  let pending: IteratorResult<string> | undefined = first;
  const iterator: AsyncIterator<string> = {
    next: () => {
      if (pending === undefined) return rest.next();
      const result = pending;
      pending = undefined;
      return Promise.resolve(result);
    },
    return: (value?: unknown) => rest.return?.(value) ?? Promise.resolve({ done: true, value: undefined }),
  };
  return { [Symbol.asyncIterator]: () => iterator };
}

/** What a stored response needs of the context it was rendered or relayed in. */
type StoredContext = Pick<RenderContext, 'responseId' | 'createdAt' | 'model' | 'previousResponseId'>;

function storedResponse(key: AuthenticatedKey, context: StoredContext, inputItems: ResponseItem[], rendered: RenderedResponse): StoredResponse {
  const status = rendered.object.status;
  const stored: StoredResponse = {
    id: context.responseId,
    accountId: key.accountId ?? `key:${key.id}`,
    model: context.model,
    createdAt: context.createdAt,
    status: STATUSES.includes(status as StoredResponseStatus) ? (status as StoredResponseStatus) : 'completed',
    inputItems,
    outputItems: rendered.outputItems,
    object: rendered.object,
    // The state store stamps the expiry from its retention setting.
    expiresAt: 0,
  };
  if (context.previousResponseId !== undefined) stored.previousResponseId = context.previousResponseId;
  return stored;
}

async function findStored(services: GatewayServices, request: FastifyRequest<{ Params: { id: string } }>): Promise<StoredResponse> {
  const stored = await services.responses.get(requestKey(request), request.params.id);
  if (!stored) throw responseNotFound(request.params.id);
  return stored;
}

async function retrieveResponse(services: GatewayServices, request: FastifyRequest<{ Params: { id: string } }>): Promise<Record<string, unknown>> {
  const query = parseRetrieveQuery(request.query);
  const stored = await findStored(services, request);
  if (query.stream) throw invalidRequest('stream: only responses created with background=true can be streamed again', 'stream');
  return forClient({ object: stored.object, outputItems: stored.outputItems }, query.include);
}

async function deleteResponse(services: GatewayServices, request: FastifyRequest<{ Params: { id: string } }>): Promise<Record<string, unknown>> {
  const { id } = request.params;
  if (!(await services.responses.remove(requestKey(request), id))) throw responseNotFound(id);
  return { id, object: 'response.deleted', deleted: true };
}

async function listInputItems(services: GatewayServices, request: FastifyRequest<{ Params: { id: string } }>): Promise<Record<string, unknown>> {
  const query = parseInputItemsQuery(request.query);
  const stored = await findStored(services, request);
  return pageOfItems(stored.inputItems, query);
}

/** OpenAI's list page: `after` is the id of the item the previous page ended with. */
function pageOfItems(items: readonly ResponseItem[], query: InputItemsQuery): Record<string, unknown> {
  const ordered = query.order === 'asc' ? items : [...items].reverse();
  let start = 0;
  if (query.after !== undefined) {
    const index = ordered.findIndex((item) => item.id === query.after);
    if (index === -1) throw invalidRequest(`after: no input item with id '${query.after}' in this response`, 'after');
    start = index + 1;
  }
  const shown = ordered.slice(start, start + query.limit).map((item) => (query.include.includes('reasoning.encrypted_content') ? item : withoutSealed(item)));
  return {
    object: 'list',
    data: shown,
    first_id: shown[0]?.id ?? null,
    last_id: shown[shown.length - 1]?.id ?? null,
    has_more: start + query.limit < ordered.length,
  };
}

/** A reasoning input item without its `encrypted_content`, unless `include` asks for it (as output items are shown). */
function withoutSealed(item: ResponseItem): ResponseItem {
  if (item.type !== 'reasoning' || item.encrypted_content === undefined) return item;
  const { encrypted_content: _sealed, ...rest } = item;
  return rest as ResponseItem;
}

async function countInputTokens(services: GatewayServices, request: FastifyRequest): Promise<Record<string, unknown>> {
  const peeked = peekResponsesRequest(request.body);
  const key = requestKey(request);
  services.checkAccess(key, peeked.model, 'chat');
  const history = await historyOf(services, key, peeked.previousResponseId);
  const parsed = parseResponsesRequest(request.body, await parseContextFor(services, key, request.body, history));
  return { object: 'response.input_tokens', input_tokens: await estimateResponsesInputTokens(parsed.canonical) };
}

export function registerResponsesRoutes(app: FastifyInstance, services: GatewayServices): void {
  useErrorRenderer(app, renderOpenAIError);
  services.background.serve(backgroundRunner(services));
  authenticateFirst(app, (presented) => services.authenticate(presented), bearerToken);
  app.post('/v1/responses', (request, reply) => createResponse(services, request, reply));
  // Before `/v1/responses/:id/…`: a literal segment wins in Fastify's router whatever the order, this only reads better.
  app.post('/v1/responses/input_tokens', (request) => countInputTokens(services, request));
  app.get<{ Params: { id: string } }>('/v1/responses/:id', (request, reply) =>
    parseRetrieveQuery(request.query).stream ? streamBackgroundResponse(services, request, reply) : retrieveResponse(services, request),
  );
  app.delete<{ Params: { id: string } }>('/v1/responses/:id', (request) => deleteResponse(services, request));
  app.post<{ Params: { id: string } }>('/v1/responses/:id/cancel', (request) => cancelBackgroundResponse(services, request));
  app.get<{ Params: { id: string } }>('/v1/responses/:id/input_items', (request) => listInputItems(services, request));
}
