/**
 * A task record of the proxy (`GET /mj/task/{id}/fetch`, one entry of `list-by-condition`) → a
 * canonical observation. Only a SUCCESS record's `imageUrl` is a result (while in progress it
 * is a preview). A DESCRIBE task's answer is text: the proxy keeps it in
 * `properties.finalPrompt` (and copies it into `prompt`); its `imageUrl` is the described image
 * itself and is not an output. The seed is not in the record (see `fetch-mj-seed.ts`).
 */
import type { TaskObservation } from '../../core/task.js';
import { cleanMjText } from './clean-mj-text.js';
import { mapMjButtons } from './map-mj-buttons.js';
import { mapMjStatus } from './map-mj-status.js';
import { parseMjProgress } from './parse-mj-progress.js';

const MAX_VENDOR_STATUS_CHARS = 40;
const MAX_TEXT_CHARS = 16 * 1024;
const MAX_URL_CHARS = 4096;

export interface MjTaskRecord {
  id?: unknown;
  action?: unknown;
  status?: unknown;
  prompt?: unknown;
  progress?: unknown;
  imageUrl?: unknown;
  failReason?: unknown;
  properties?: unknown;
  buttons?: unknown;
}

export function fromMjTaskRecord(record: MjTaskRecord): TaskObservation {
  const vendorStatus = typeof record.status === 'string' ? record.status.slice(0, MAX_VENDOR_STATUS_CHARS) : '';
  const status = mapMjStatus(record.status);
  const observation: TaskObservation = { status, vendorStatus };
  const progress = parseMjProgress(record.progress);
  if (progress !== undefined) observation.progress = progress;
  if (status === 'failed') {
    observation.error = { code: 'upstream_failed', message: cleanMjText(record.failReason) || 'the upstream reported a failure' };
  } else if (status === 'canceled') {
    observation.error = { code: 'upstream_canceled', message: cleanMjText(record.failReason) || 'the upstream canceled the task' };
  } else if (status === 'succeeded') {
    return withResult(observation, record);
  }
  return observation;
}

function withResult(observation: TaskObservation, record: MjTaskRecord): TaskObservation {
  observation.progress = 1;
  const buttons = mapMjButtons(record.buttons);
  if (buttons && buttons.length > 0) observation.buttons = buttons;
  if (record.action === 'DESCRIBE') {
    const text = describedText(record);
    if (text) return { ...observation, text };
    return failedSuccess(observation, 'the upstream reported a finished describe without its text');
  }
  const url = resultUrl(record.imageUrl);
  if (!url) return failedSuccess(observation, 'the upstream reported success without an image');
  observation.outputs = [{ url, kind: 'image' }];
  return observation;
}

function describedText(record: MjTaskRecord): string | undefined {
  const finalPrompt = (record.properties as { finalPrompt?: unknown } | null | undefined)?.finalPrompt;
  const text = typeof finalPrompt === 'string' && finalPrompt.trim() ? finalPrompt : record.prompt;
  return typeof text === 'string' && text.trim() ? text.slice(0, MAX_TEXT_CHARS) : undefined;
}

function resultUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_URL_CHARS) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A SUCCESS without its result cannot be delivered: the task fails (and is refunded) instead of hanging. */
function failedSuccess(observation: TaskObservation, message: string): TaskObservation {
  const { buttons: _buttons, ...rest } = observation;
  return { ...rest, status: 'failed', error: { code: 'upstream_failed', message } };
}
