/**
 * Mixed client load on a gateway, with what each client saw: non-stream chat, streamed chat in
 * the three dialects and embeddings. A request counts as completed only when its whole body
 * arrived and ends as that dialect ends a successful answer.
 */
import { MASTER_KEY } from './gateway-process.js';

export type Kind = 'chat' | 'openai-stream' | 'anthropic-stream' | 'gemini-stream' | 'embed';

export interface Seen {
  kind: Kind;
  /** From the response headers; undefined when no response came back at all. */
  requestId?: string;
  status?: number;
  completed: boolean;
  body: string;
}

const PROMPT = 'Tell me about the history of the lighthouse keepers of the northern coast.';

function requestFor(kind: Kind, url: string): [string, RequestInit] {
  const json = { 'content-type': 'application/json' };
  switch (kind) {
    case 'chat':
      return [
        `${url}/v1/chat/completions`,
        {
          method: 'POST',
          headers: { ...json, authorization: `Bearer ${MASTER_KEY}` },
          body: JSON.stringify({ model: 'textmodel-b-4o-mini', max_tokens: 40, messages: [{ role: 'user', content: PROMPT }] }),
        },
      ];
    case 'openai-stream':
      return [
        `${url}/v1/chat/completions`,
        {
          method: 'POST',
          headers: { ...json, authorization: `Bearer ${MASTER_KEY}` },
          body: JSON.stringify({ model: 'textmodel-b-4o', max_tokens: 40, stream: true, messages: [{ role: 'user', content: PROMPT }] }),
        },
      ];
    case 'anthropic-stream':
      return [
        `${url}/v1/messages`,
        {
          method: 'POST',
          headers: { ...json, 'x-api-key': MASTER_KEY, 'anthropic-version': '2023-06-01' },
          body: JSON.stringify({ model: 'textmodel-a-haiku-4-5-20251001', max_tokens: 40, stream: true, messages: [{ role: 'user', content: PROMPT }] }),
        },
      ];
    case 'gemini-stream':
      return [
        `${url}/v1beta/models/textmodel-c-2.0-flash:streamGenerateContent?alt=sse`,
        {
          method: 'POST',
          headers: { ...json, 'x-goog-api-key': MASTER_KEY },
          body: JSON.stringify({ contents: [{ parts: [{ text: PROMPT }] }], generationConfig: { maxOutputTokens: 40 } }),
        },
      ];
    case 'embed':
      return [
        `${url}/v1/embeddings`,
        {
          method: 'POST',
          headers: { ...json, authorization: `Bearer ${MASTER_KEY}` },
          body: JSON.stringify({ model: 'text-embedding-3-small', input: ['lighthouse', 'keeper', PROMPT] }),
        },
      ];
  }
}

/** Whether a 200 body is a whole, successful answer of its dialect. */
export function endsWell(kind: Kind, body: string): boolean {
  switch (kind) {
    case 'chat':
      return body.includes('"finish_reason"');
    case 'openai-stream':
      return body.trimEnd().endsWith('data: [DONE]') && !body.includes('"error"');
    case 'anthropic-stream':
      return body.includes('event: message_stop') && !body.includes('event: error');
    case 'gemini-stream':
      return body.includes('"finishReason"') && !body.includes('"error"');
    case 'embed':
      return body.includes('"embedding"');
  }
}

/** Sends one request and reads its whole answer; `onFirstBytes` runs when the first body bytes arrive. */
export async function send(kind: Kind, url: string, onFirstBytes?: () => void): Promise<Seen> {
  const seen: Seen = { kind, completed: false, body: '' };
  const [target, init] = requestFor(kind, url);
  try {
    const response = await fetch(target, init);
    seen.requestId = response.headers.get('x-request-id') ?? undefined;
    seen.status = response.status;
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (seen.body === '') onFirstBytes?.();
      seen.body += decoder.decode(value, { stream: true });
    }
    seen.completed = response.status === 200 && endsWell(kind, seen.body);
  } catch {
    // Connection cut (the gateway was killed) or aborted: not completed.
  }
  return seen;
}

const KINDS: Kind[] = ['chat', 'openai-stream', 'anthropic-stream', 'gemini-stream', 'embed'];

/** A mixed load under way: what it has seen so far, and its end. */
export interface MixedLoad {
  /** The requests that ended so far, in the order they ended (grows while the load runs). */
  readonly seen: readonly Seen[];
  /** Requests whose body has begun arriving and has not ended: the ones a kill now would cut mid-answer. */
  midAnswer(): number;
  /** Resolves once `stop` fired and every loop's last request ended: everything seen. */
  readonly done: Promise<Seen[]>;
}

/** `workers` loops per kind, each sending one request after the other until `stop` fires. */
export function runMixedLoad(url: string, workersPerKind: number, stop: AbortSignal): MixedLoad {
  const seen: Seen[] = [];
  let midAnswer = 0;
  const loops = KINDS.flatMap((kind) =>
    Array.from({ length: workersPerKind }, async () => {
      while (!stop.aborted) {
        let begun = false;
        const result = await send(kind, url, () => {
          begun = true;
          midAnswer++;
        });
        if (begun) midAnswer--;
        seen.push(result);
      }
    }),
  );
  return { seen, midAnswer: () => midAnswer, done: Promise.all(loops).then(() => seen) };
}
