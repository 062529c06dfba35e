/**
 * Server-sent events from a fetch body: lines in, one `data` payload out per event (several
 * `data:` lines of one event are joined with a newline, as the SSE format says). Bounded: a
 * line longer than MAX_LINE_CHARS ends the stream with an error instead of growing forever.
 */
export const MAX_LINE_CHARS = 1_000_000;

export class SseParser {
  private buffer = '';
  private data: string[] = [];

  constructor(private readonly onData: (data: string) => void) {}

  /** Feeds a decoded chunk; complete events are handed to `onData` as they end. */
  push(chunk: string): void {
    this.buffer += chunk;
    let newline = this.buffer.indexOf('\n');
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, '');
      this.buffer = this.buffer.slice(newline + 1);
      this.line(line);
      newline = this.buffer.indexOf('\n');
    }
    if (this.buffer.length > MAX_LINE_CHARS) throw new Error('The stream sent a line longer than the dashboard accepts.');
  }

  /** The stream ended: an event not closed by a blank line still counts. */
  end(): void {
    if (this.buffer) this.line(this.buffer.replace(/\r$/, ''));
    this.buffer = '';
    this.dispatch();
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    this.data.push(value);
  }

  private dispatch(): void {
    if (this.data.length === 0) return;
    const data = this.data.join('\n');
    this.data = [];
    this.onData(data);
  }
}

export interface PlaygroundUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface PlaygroundRoute {
  channel: string;
  provider: string;
  simulated: boolean;
}

export type PlaygroundEvent =
  | { type: 'text'; text: string }
  | { type: 'done'; usage: PlaygroundUsage | null; route: PlaygroundRoute | null }
  | { type: 'error'; message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One playground stream payload, checked; anything unexpected is undefined (skipped). */
export function parsePlaygroundEvent(data: string): PlaygroundEvent | undefined {
  if (data === '[DONE]') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  if (value.type === 'text' && typeof value.text === 'string') return { type: 'text', text: value.text };
  if (value.type === 'error') return { type: 'error', message: typeof value.message === 'string' ? value.message : 'The model call failed.' };
  if (value.type === 'done') {
    const usage = isRecord(value.usage) ? { inputTokens: Number(value.usage.inputTokens) || 0, outputTokens: Number(value.usage.outputTokens) || 0 } : null;
    const route = isRecord(value.route)
      ? { channel: String(value.route.channel ?? ''), provider: String(value.route.provider ?? ''), simulated: value.route.simulated === true }
      : null;
    return { type: 'done', usage, route };
  }
  return undefined;
}
