/**
 * The chat playground (signed in): a prompt to any model the account may use, streamed back.
 * It runs through the gateway's normal call lifecycle as a key of the account (the account's
 * model list applies, the usage row is the account's), and ends when the browser goes away.
 */
import type { FastifyInstance } from 'fastify';
import type { ChatMessage, ChatRequest, TextPart } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import type { AuthenticatedKey } from '../../core/key.js';
import { clientSignal, sendSse } from '../../http/reply-helpers.js';
import type { Actor } from '../actor.js';
import type { AdminDeps } from '../admin-deps.js';
import { frame, playgroundFrames } from '../playground-sse.js';

const MAX_MESSAGES = 50;
const MAX_MESSAGE_CHARS = 32_768;
const MAX_TOKENS = 4_096;

interface PlaygroundBody {
  model: string;
  messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }>;
  maxTokens?: number;
}

/** The key the playground calls as: the account's model list; master and operator keys may use any model. */
async function playgroundKey(actor: Actor, deps: AdminDeps): Promise<AuthenticatedKey> {
  if (actor.accountId === null) return { id: `playground:${actor.kind}`, name: 'playground', models: null, isMaster: false, accountId: null };
  const account = await deps.accounts.findById(actor.accountId);
  if (!account || account.disabledAt !== null) throw new GatewayError('permission', 'This account may not use the playground.', { code: 'forbidden' });
  return { id: `playground:${account.id}`, name: 'playground', models: account.models, isMaster: false, accountId: account.id };
}

function chatRequest(body: PlaygroundBody): ChatRequest {
  const system: TextPart[] = [];
  const messages: ChatMessage[] = [];
  for (const message of body.messages) {
    if (message.role === 'system') system.push({ type: 'text', text: message.content });
    else messages.push({ role: message.role, content: [{ type: 'text', text: message.content }] });
  }
  if (messages.length === 0) throw new GatewayError('invalid_request', 'Add at least one user message.', { param: 'messages', code: 'no_messages' });
  return { model: body.model, ...(system.length > 0 ? { system } : {}), messages, maxTokens: body.maxTokens, stream: true, includeUsage: true };
}

export function playgroundRoutes(app: FastifyInstance, deps: AdminDeps): void {
  app.post<{ Body: PlaygroundBody }>(
    '/playground/chat',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['playground'],
        summary:
          'Send a chat to a model as the signed-in account and stream the answer: `data: {"type":"text","text":…}` lines, then `done` (usage, route) or `error`',
        body: {
          type: 'object',
          properties: {
            model: { type: 'string', minLength: 1, maxLength: 256 },
            messages: {
              type: 'array',
              minItems: 1,
              maxItems: MAX_MESSAGES,
              items: {
                type: 'object',
                properties: {
                  role: { type: 'string', enum: ['system', 'user', 'assistant'] },
                  content: { type: 'string', maxLength: MAX_MESSAGE_CHARS },
                },
                required: ['role', 'content'],
                additionalProperties: false,
              },
            },
            maxTokens: { type: 'integer', minimum: 1, maximum: MAX_TOKENS },
          },
          required: ['model', 'messages'],
          additionalProperties: false,
        },
        response: { 200: { description: 'Server-sent events', content: { 'text/event-stream': { schema: { type: 'string' } } } } },
      },
    },
    async (request, reply) => {
      const signal = clientSignal(request, reply);
      const actor = request.actor as Actor;
      const canonical = chatRequest(request.body);
      const key = await playgroundKey(actor, deps);
      // Refusals before the first byte (model not allowed, unknown, no channel) answer as JSON errors.
      const outcome = await deps.services.chat({
        key,
        surface: 'playground',
        requestId: String(request.id),
        model: canonical.model,
        stream: true,
        canonical: () => canonical,
        signal,
        http: request,
      });
      let frames: AsyncIterable<string>;
      if (outcome.kind === 'stream') frames = playgroundFrames(outcome.events, outcome.route, signal);
      else if (outcome.kind === 'response') {
        const text = outcome.response.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
        const { usage } = outcome.response;
        const { channel, provider, simulated } = outcome.route;
        frames = (async function* () {
          if (text) yield frame({ type: 'text', text });
          yield frame({ type: 'done', usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens }, route: { channel, provider, simulated } });
        })();
      } else {
        // Only a call carrying the client's raw body can be passed through; this one carries none.
        throw new GatewayError('internal', 'the playground got an untranslated answer');
      }
      return sendSse(reply, frames);
    },
  );
}
