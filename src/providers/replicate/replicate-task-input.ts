/**
 * The `input` of the one prediction an imagegen1 task creates. imagegen1 speaks Replicate's own
 * words, so the task's extra options (snake_case model inputs such as `aspect_ratio`,
 * `guidance`, `output_format`) are relayed as they are, bounded; the canonical fields
 * (prompt, size, count, seed) are never taken from options.
 */
import type { TaskRequest } from '../../core/task.js';
import { makesOneImage } from './replicate-request.js';
import { nearestStandardRatio, roundToCustomSize } from './replicate-size.js';

const MAX_RELAYED_OPTIONS = 32;
const MAX_OPTION_STRING_CHARS = 4_096;
/** A model input name: what Cog models declare (snake_case). */
const INPUT_NAME = /^[a-z][a-z0-9_]{0,63}$/;
/** Inputs only the canonical request decides. */
const CANONICAL_INPUTS = new Set(['prompt', 'width', 'height', 'num_outputs', 'seed']);

export function toReplicateTaskInput(request: Omit<TaskRequest, 'images'>, upstreamModel: string): Record<string, unknown> {
  const input = relayedOptions(request.options);
  input.prompt = request.prompt ?? '';
  const askedRatio = typeof input.aspect_ratio === 'string' ? input.aspect_ratio : undefined;
  const size = request.width !== undefined && request.height !== undefined ? { width: request.width, height: request.height } : undefined;
  if (size && !askedRatio && makesOneImage(upstreamModel)) {
    // Flux Pro takes an exact size only as `aspect_ratio: "custom"` within its limits.
    Object.assign(input, { aspect_ratio: 'custom', ...roundToCustomSize(size) });
  } else {
    if (request.width !== undefined) input.width = request.width;
    if (request.height !== undefined) input.height = request.height;
    // Flux models read the aspect ratio, not the size: the closest one keeps the asked shape.
    if (size && !askedRatio) input.aspect_ratio = nearestStandardRatio(size);
  }
  input.num_outputs = Math.max(1, request.count ?? 1);
  if (request.seed !== undefined) input.seed = request.seed;
  if (input.output_format === undefined) input.output_format = 'png';
  return input;
}

/** Options that are plain model inputs: a bounded number of snake_case names with scalar values. */
function relayedOptions(options: Record<string, unknown> | undefined): Record<string, unknown> {
  const relayed: Record<string, unknown> = {};
  let count = 0;
  for (const [name, value] of Object.entries(options ?? {})) {
    if (count >= MAX_RELAYED_OPTIONS) break;
    if (!INPUT_NAME.test(name) || CANONICAL_INPUTS.has(name) || !isScalarInput(value)) continue;
    relayed[name] = value;
    count++;
  }
  return relayed;
}

function isScalarInput(value: unknown): boolean {
  if (typeof value === 'string') return value.length <= MAX_OPTION_STRING_CHARS;
  if (typeof value === 'number') return Number.isFinite(value);
  return typeof value === 'boolean';
}
