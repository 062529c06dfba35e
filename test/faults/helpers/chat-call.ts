/**
 * Chat Completions calls as an OpenAI client makes them, for the limits fault tests: one call
 * read to its end (status, headers, JSON body or SSE text, how long it took; a broken connection
 * is status 0 with its error), or a stream opened and left running so a test can hold it.
 * The prompt is `words` filler words: the fake upstream echoes them, so with `maxTokens` below
 * that count the answer is exactly `maxTokens` output tokens.
 */

export interface ChatRequest {
  model: string;
  stream?: boolean;
  /** Words in the user message (the fake answers "You said: " and echoes them). */
  words?: number;
  maxTokens?: number;
}

export interface ChatResult {
  status: number;
  headers: Headers;
  /** The JSON body of a non-streamed answer or of a refusal; undefined for a stream. */
  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as a client would
  json?: any;
  /** The raw body text (SSE frames for a stream). */
  text: string;
  ms: number;
  /** Why the connection broke, when it did (status 0). */
  error?: string;
}

function prompt(words: number): string {
  return Array.from({ length: words }, (_, i) => `w${i}`).join(' ');
}

export function openChat(gatewayUrl: string, key: string, request: ChatRequest): Promise<Response> {
  const body: Record<string, unknown> = {
    model: request.model,
    messages: [{ role: 'user', content: prompt(request.words ?? 5) }],
  };
  if (request.stream) body.stream = true;
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  return fetch(`${gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

export async function chat(gatewayUrl: string, key: string, request: ChatRequest): Promise<ChatResult> {
  const started = Date.now();
  try {
    const response = await openChat(gatewayUrl, key, request);
    const text = await response.text();
    const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
    return { status: response.status, headers: response.headers, json: isJson ? JSON.parse(text) : undefined, text, ms: Date.now() - started };
  } catch (error) {
    return { status: 0, headers: new Headers(), text: '', ms: Date.now() - started, error: String((error as Error).cause ?? error) };
  }
}

/** How many of `results` have each status, e.g. `{ 200: 30, 429: 60 }`. */
export function countByStatus(results: readonly ChatResult[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const result of results) counts[result.status] = (counts[result.status] ?? 0) + 1;
  return counts;
}

/** Whether a streamed answer ended properly (its `[DONE]` frame arrived). */
export function streamCompleted(result: ChatResult): boolean {
  return result.status === 200 && result.text.includes('data: [DONE]');
}
