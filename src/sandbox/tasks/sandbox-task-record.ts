/**
 * What the sandbox keeps of a task in the task row (`upstreamData`): everything `poll` needs to
 * answer from the clock alone, so that a restarted gateway (or another replica) carries on.
 * It comes back from the database as plain JSON, so reading it checks every field.
 */
import type { MediaRef, TaskButton } from '../../core/task.js';

/** Results a sandbox task holds at most (a grid, imagegen1's four pictures, or a video and its thumbnail). */
const MAX_RECORD_OUTPUTS = 4;
const MAX_TEXT_CHARS = 8_000;
const MAX_BUTTONS = 12;

export interface SandboxTaskRecord {
  /** When the task was accepted (Unix ms). */
  startedAt: number;
  /** How long it takes to finish. */
  totalMs: number;
  outputs: MediaRef[];
  seed?: string;
  text?: string;
  buttons?: TaskButton[];
  /** The first output is a 2×2 grid that upscale / variation / reroll can act on. */
  grid: boolean;
  /** Set when the task is planned to fail: it runs to `atShare` of its time, then fails with `message`. */
  failure?: { message: string; atShare: number };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function finiteAtLeastZero(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function readMediaRef(value: unknown): MediaRef | undefined {
  if (!isRecord(value)) return undefined;
  const { mediaId, kind, mime, bytes } = value;
  if (typeof mediaId !== 'string' || (kind !== 'image' && kind !== 'video') || typeof mime !== 'string' || !finiteAtLeastZero(bytes)) return undefined;
  const ref: MediaRef = { mediaId, kind, mime, bytes };
  if (finiteAtLeastZero(value.width)) ref.width = value.width;
  if (finiteAtLeastZero(value.height)) ref.height = value.height;
  if (finiteAtLeastZero(value.seconds)) ref.seconds = value.seconds;
  return ref;
}

function readButton(value: unknown): TaskButton | undefined {
  if (!isRecord(value)) return undefined;
  const { customId, label, emoji, type, style } = value;
  if (typeof customId !== 'string' || typeof label !== 'string' || typeof type !== 'number' || typeof style !== 'number') return undefined;
  return typeof emoji === 'string' ? { customId, emoji, label, type, style } : { customId, label, type, style };
}

function readAll<T>(values: unknown, max: number, read: (value: unknown) => T | undefined): T[] | undefined {
  if (!Array.isArray(values) || values.length > max) return undefined;
  const out: T[] = [];
  for (const value of values) {
    const item = read(value);
    if (!item) return undefined;
    out.push(item);
  }
  return out;
}

/** The record as JSON-safe upstream data. */
export function toUpstreamData(record: SandboxTaskRecord): Record<string, unknown> {
  return { ...record };
}

/** The record kept at submit, or undefined when the data is not one (never written by this sandbox). */
export function readSandboxTaskRecord(data: Record<string, unknown> | undefined): SandboxTaskRecord | undefined {
  if (!data || !finiteAtLeastZero(data.startedAt) || !finiteAtLeastZero(data.totalMs)) return undefined;
  const outputs = readAll(data.outputs, MAX_RECORD_OUTPUTS, readMediaRef);
  if (!outputs) return undefined;
  const record: SandboxTaskRecord = { startedAt: data.startedAt, totalMs: data.totalMs, outputs, grid: data.grid === true };
  if (typeof data.seed === 'string') record.seed = data.seed;
  if (typeof data.text === 'string') record.text = data.text.slice(0, MAX_TEXT_CHARS);
  if (data.buttons !== undefined) {
    const buttons = readAll(data.buttons, MAX_BUTTONS, readButton);
    if (!buttons) return undefined;
    record.buttons = buttons;
  }
  if (data.failure !== undefined) {
    const failure = data.failure;
    if (!isRecord(failure) || typeof failure.message !== 'string' || !finiteAtLeastZero(failure.atShare)) return undefined;
    record.failure = { message: failure.message.slice(0, MAX_TEXT_CHARS), atShare: Math.min(1, failure.atShare) };
  }
  return record;
}
