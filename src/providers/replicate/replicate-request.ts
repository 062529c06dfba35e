/** Where a prediction is created and what it carries, for a canonical generate request. */
import type { ImageGenerateRequest } from '../../core/image.js';
import { modelPath } from '../shared/path-segment.js';
import type { ChannelConfig } from '../types.js';
import { nearestStandardRatio, roundToCustomSize } from './replicate-size.js';

/** Most Flux models on Replicate make at most 4 images per prediction. */
export const MAX_OUTPUTS_PER_PREDICTION = 4;

/** Canonical options (camelCase, as surfaces put them) that Flux models on Replicate take as inputs. */
const TUNING_INPUTS = [
  ['safetyTolerance', 'safety_tolerance'],
  ['promptUpsampling', 'prompt_upsampling'],
  ['guidance', 'guidance'],
  ['numInferenceSteps', 'num_inference_steps'],
] as const;

type ReplicateOutputFormat = 'png' | 'jpg' | 'webp';

interface PredictionTarget {
  url: string;
  /** `{version}` for the `owner/name:version` form; nothing more for official models. */
  extraBody: Record<string, unknown>;
}

/** `owner/name` → the model's predictions endpoint; `owner/name:version` → `/v1/predictions` with that version. */
export function predictionTarget(channel: ChannelConfig, upstreamModel: string): PredictionTarget {
  const base = apiBase(channel);
  const colon = upstreamModel.indexOf(':');
  if (colon >= 0) return { url: `${base}/v1/predictions`, extraBody: { version: upstreamModel.slice(colon + 1) } };
  return { url: `${base}/v1/models/${modelPath(upstreamModel, { segments: 2 })}/predictions`, extraBody: {} };
}

export function apiBase(channel: ChannelConfig): string {
  return channel.baseUrl.replace(/\/+$/, '');
}

/**
 * Flux Pro and 1.1 Pro take one image per prediction and an exact size (`aspect_ratio:
 * "custom"`); the other Flux models take an aspect ratio from a fixed list and `num_outputs`.
 */
export function makesOneImage(upstreamModel: string): boolean {
  return /\/flux-(1\.1-)?pro(:|$)/.test(upstreamModel);
}

export function replicateOutputFormat(request: ImageGenerateRequest): ReplicateOutputFormat {
  const wanted = request.options?.outputFormat;
  if (wanted === 'jpeg' || wanted === 'jpg') return 'jpg';
  if (wanted === 'webp') return 'webp';
  return 'png';
}

/** The `input` of a prediction making `count` images, its first with seed `seed` (when seeded). */
export function toReplicateInput(request: ImageGenerateRequest, upstreamModel: string, count: number, seed?: number): Record<string, unknown> {
  const input: Record<string, unknown> = { prompt: request.prompt };
  if (makesOneImage(upstreamModel) && request.size && !request.aspectRatio) {
    const size = roundToCustomSize(request.size);
    input.aspect_ratio = 'custom';
    input.width = size.width;
    input.height = size.height;
  } else if (request.aspectRatio) {
    input.aspect_ratio = request.aspectRatio;
  } else if (request.size) {
    // Models sized by width and height read these; Flux models read the aspect ratio.
    input.width = request.size.width;
    input.height = request.size.height;
    input.aspect_ratio = nearestStandardRatio(request.size);
  }
  input.num_outputs = count;
  if (seed !== undefined) input.seed = seed;
  input.output_format = replicateOutputFormat(request);
  for (const [option, field] of TUNING_INPUTS) {
    const value = request.options?.[option];
    if (typeof value === 'number' || typeof value === 'boolean') input[field] = value;
  }
  return input;
}

export function replicateHeaders(channel: ChannelConfig, waitSeconds?: number): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${channel.apiKey}`, 'content-type': 'application/json' };
  if (waitSeconds !== undefined) headers.prefer = `wait=${waitSeconds}`;
  for (const [name, value] of Object.entries(channel.headers)) headers[name.toLowerCase()] = value;
  return headers;
}

/** Channel option `pollIntervalMs` (default 500 ms): the pause between two polls of a prediction. */
export function pollIntervalMs(channel: ChannelConfig): number {
  const value = channel.options.pollIntervalMs;
  return typeof value === 'number' && value > 0 ? value : 500;
}
