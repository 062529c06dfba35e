/**
 * The seed of a finished task (`GET /mj/task/{id}/image-seed` → `{code:1, result:"<seed>"}`).
 * Asked once, when a poll first sees the task succeed; any failure leaves the seed unknown and
 * never fails the task (404 code 3: unknown task, 400 code 4: no image yet, or the proxy lacks the route).
 */
import { upstreamIdPathSegment } from '../shared/path-segment.js';
import type { ChannelConfig } from '../types.js';
import { callMjProxy, MJ_SMALL_ANSWER_BYTES } from './call-mj-proxy.js';

const SEED_TIMEOUT_MS = 10_000;
const MAX_SEED_CHARS = 64;

export async function fetchMjSeed(channel: ChannelConfig, upstreamId: string, signal: AbortSignal): Promise<string | undefined> {
  try {
    const answer = await callMjProxy({
      channel,
      method: 'GET',
      path: `/task/${upstreamIdPathSegment(upstreamId)}/image-seed`,
      signal,
      timeoutMs: Math.min(channel.timeoutMs, SEED_TIMEOUT_MS),
      maxBytes: MJ_SMALL_ANSWER_BYTES,
    });
    return seedOf(answer.json);
  } catch {
    return undefined;
  }
}

function seedOf(answer: unknown): string | undefined {
  if (answer === null || typeof answer !== 'object') return undefined;
  const { code, result } = answer as { code?: unknown; result?: unknown };
  if (code !== 1) return undefined;
  const seed = typeof result === 'number' && Number.isSafeInteger(result) ? String(result) : result;
  return typeof seed === 'string' && /^\d{1,64}$/.test(seed) && seed.length <= MAX_SEED_CHARS ? seed : undefined;
}
