/** The canonical generate request as a BFL task body, and where and how it is sent. */
import type { ImageGenerateRequest } from '../../core/image.js';
import { modelPath } from '../shared/path-segment.js';
import type { ChannelConfig } from '../types.js';
import { aspectRatioForSize, roundToBflSize, sizeForAspectRatio } from './bfl-size.js';

type BflOutputFormat = 'png' | 'jpeg';

/** Ultra and Kontext endpoints size their images by aspect ratio; the others take width and height. */
function takesAspectRatio(upstreamModel: string): boolean {
  return /ultra|kontext/.test(upstreamModel);
}

/** `png` unless the client asked for JPEG (BFL knows no other format). */
export function bflOutputFormat(request: ImageGenerateRequest): BflOutputFormat {
  const wanted = request.options?.outputFormat;
  return wanted === 'jpeg' || wanted === 'jpg' ? 'jpeg' : 'png';
}

/**
 * The body of task number `index` of the request. With a seed and n > 1 each task gets the
 * next seed, so that the n images differ yet stay reproducible. Options read (camelCase, as
 * surfaces put them): `outputFormat`, `safetyTolerance`, `promptUpsampling`, `raw`.
 */
export function toBflBody(request: ImageGenerateRequest, upstreamModel: string, channel: ChannelConfig, index = 0): Record<string, unknown> {
  const body: Record<string, unknown> = { prompt: request.prompt };
  if (takesAspectRatio(upstreamModel)) {
    const aspectRatio = request.aspectRatio ?? (request.size ? aspectRatioForSize(request.size) : undefined);
    if (aspectRatio) body.aspect_ratio = aspectRatio;
    if (typeof request.options?.raw === 'boolean') body.raw = request.options.raw;
  } else {
    const size = request.size ? roundToBflSize(request.size) : request.aspectRatio ? sizeForAspectRatio(request.aspectRatio) : undefined;
    if (size) {
      body.width = size.width;
      body.height = size.height;
    }
  }
  if (request.seed !== undefined) body.seed = request.seed + index;
  body.output_format = bflOutputFormat(request);
  const safety = request.options?.safetyTolerance ?? channel.options.safetyTolerance;
  if (typeof safety === 'number' && Number.isInteger(safety) && safety >= 0 && safety <= 6) body.safety_tolerance = safety;
  if (typeof request.options?.promptUpsampling === 'boolean') body.prompt_upsampling = request.options.promptUpsampling;
  return body;
}

export function bflSubmitUrl(channel: ChannelConfig, upstreamModel: string): string {
  return `${channel.baseUrl.replace(/\/+$/, '')}/v1/${modelPath(upstreamModel)}`;
}

export function bflHeaders(channel: ChannelConfig, json: boolean): Record<string, string> {
  const headers: Record<string, string> = { 'x-key': channel.apiKey, accept: 'application/json' };
  if (json) headers['content-type'] = 'application/json';
  for (const [name, value] of Object.entries(channel.headers)) headers[name.toLowerCase()] = value;
  return headers;
}

/** Channel option `pollIntervalMs` (default 500 ms): the pause between two polls of a task. */
export function pollIntervalMs(channel: ChannelConfig): number {
  const value = channel.options.pollIntervalMs;
  return typeof value === 'number' && value > 0 ? value : 500;
}
