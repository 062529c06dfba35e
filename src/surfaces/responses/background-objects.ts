/**
 * The response objects and stream events a background response adds to the renderer's: the
 * object the create answers with (`queued`), the one a cancel leaves (`cancelled`, no output),
 * the one a run that could not start ends with (`failed`), their terminal events (a cancelled
 * response's stream ends with `response.failed` carrying `status: "cancelled"`, as OpenAI's
 * does: there is no `response.cancelled` event), and the rewriting of the renderer's SSE frames
 * into stored events (`background: true` on every response they carry; `response.created` says
 * `queued`; its `sequence_number` is the store's).
 */
import type { ResponseItem, StoredResponse, StoredResponseStatus } from '../../core/responses.js';
import type { BackgroundResponseEvent } from '../../gateway/contract.js';

const STATUSES: readonly string[] = ['queued', 'in_progress', 'completed', 'incomplete', 'failed', 'cancelled'];
export const TERMINAL_EVENT_TYPES: ReadonlySet<string> = new Set(['response.completed', 'response.incomplete', 'response.failed']);

export function statusOf(object: Record<string, unknown>): StoredResponseStatus {
  const status = object.status;
  return typeof status === 'string' && STATUSES.includes(status) ? (status as StoredResponseStatus) : 'failed';
}

/** A response object in another status, marked background; a status other than `completed` has no `completed_at`. */
export function withStatus(object: Record<string, unknown>, status: StoredResponseStatus, patch: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...object, status, background: true, completed_at: status === 'completed' ? (object.completed_at ?? null) : null, ...patch };
}

/** The stored response rewritten to another status and object (and output items). */
export function restated(stored: StoredResponse, object: Record<string, unknown>, outputItems: ResponseItem[] = stored.outputItems): StoredResponse {
  return { ...stored, status: statusOf(object), object, outputItems };
}

export function cancelledObject(object: Record<string, unknown>): Record<string, unknown> {
  return withStatus(object, 'cancelled', { output: [], output_text: undefined, error: null, incomplete_details: null });
}

export function failedObject(object: Record<string, unknown>, error: { code: string; message: string }): Record<string, unknown> {
  return withStatus(object, 'failed', { output: [], error, incomplete_details: null });
}

/** The terminal event of a response that ended without the renderer: `response.failed`, for a failure and a cancel alike. */
export function terminalEvent(object: Record<string, unknown>): BackgroundResponseEvent {
  return { type: 'response.failed', response: object };
}

/**
 * One SSE frame of the renderer (`event: <type>\ndata: <json>\n\n`) as a stored event: its
 * `sequence_number` dropped (the store numbers events), its response marked background, and
 * `response.created` showing the response `queued` as a background one starts.
 */
export function eventOfFrame(frame: string): BackgroundResponseEvent | undefined {
  const at = frame.indexOf('data: ');
  if (at === -1) return undefined;
  const event = JSON.parse(frame.slice(at + 6).trimEnd()) as BackgroundResponseEvent;
  if (typeof event.type !== 'string') return undefined;
  delete event.sequence_number;
  const response = event.response;
  if (response && typeof response === 'object') {
    const shown = response as Record<string, unknown>;
    shown.background = true;
    if (event.type === 'response.created') shown.status = 'queued';
  }
  return event;
}

/** A stored event as an SSE frame: its JSON already carries its `sequence_number`. */
export function frameOfStored(event: { type: string; data: string }): string {
  return `event: ${event.type}\ndata: ${event.data}\n\n`;
}
