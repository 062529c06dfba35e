/**
 * Scripted replays for the fake upstreams: a test hands a fake the exact bytes a real
 * upstream sends (`fake.replayNext(script)`) and the next request is answered with them,
 * piece by piece with a pause between, so each piece reaches the gateway as its own read —
 * the way interleaved tool deltas, refusals and multi-byte characters cut by TCP arrive.
 */
import type { ServerResponse } from 'node:http';

export interface ScriptedStream {
  /** Written in order, one write each, with `pauseMs` between them. */
  pieces: Array<string | Uint8Array>;
  status?: number;
  headers?: Record<string, string>;
  pauseMs?: number;
}

/** One pending script per fake: `replayNext` sets it, the next request takes it. */
export class ScriptSlot {
  private next: ScriptedStream | undefined;

  replayNext(script: ScriptedStream): void {
    this.next = script;
  }

  /** Answers with the pending script, if any; true when it did. */
  answer(res: ServerResponse): boolean {
    const script = this.next;
    if (script === undefined) return false;
    this.next = undefined;
    void replay(res, script);
    return true;
  }
}

async function replay(res: ServerResponse, script: ScriptedStream): Promise<void> {
  res.writeHead(script.status ?? 200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...script.headers });
  for (const piece of script.pieces) {
    if (res.destroyed) return;
    res.write(piece);
    await new Promise((resolve) => setTimeout(resolve, script.pauseMs ?? 5));
  }
  res.end();
}

/** SSE frames, `event:` line only when named; `lineEnd` `\r\n` for Google's framing. */
export function sseFrames(events: Array<{ event?: string; data: unknown }>, lineEnd = '\n'): string[] {
  return events.map(({ event, data }) => {
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    return `${event === undefined ? '' : `event: ${event}${lineEnd}`}data: ${text}${lineEnd}${lineEnd}`;
  });
}

/**
 * The UTF-8 bytes of `text`, cut inside every multi-byte character (after its first byte),
 * so no piece ends on a character boundary where one could.
 */
export function cutInsideCharacters(text: string): Uint8Array[] {
  const bytes = Buffer.from(text, 'utf8');
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (let i = 0; i < bytes.length; i++) {
    // A lead byte of a multi-byte sequence (11xxxxxx): cut just after it.
    if ((bytes[i] & 0xc0) === 0xc0) {
      pieces.push(bytes.subarray(from, i + 1));
      from = i + 1;
    }
  }
  pieces.push(bytes.subarray(from));
  return pieces.filter((piece) => piece.length > 0);
}
