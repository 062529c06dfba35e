/**
 * Where a prediction is read and canceled. Replicate answers its own `urls.get` / `urls.cancel`;
 * they are used only when they point at the channel's upstream: a URL elsewhere (a proxy in
 * front of Replicate rewriting nothing, or a hostile answer) must never receive the channel's
 * token, so the same path under the channel's base URL is used instead.
 */
import { upstreamIdPathSegment } from '../shared/path-segment.js';
import type { ChannelConfig } from '../types.js';
import { apiBase } from './replicate-request.js';

export interface PredictionUrls {
  get?: unknown;
  cancel?: unknown;
}

export function predictionUrl(channel: ChannelConfig, id: string, urls: PredictionUrls | undefined, which: 'get' | 'cancel'): string {
  const base = apiBase(channel);
  const given = urls?.[which];
  if (typeof given === 'string' && sameOrigin(given, base)) return given;
  const path = `${base}/v1/predictions/${upstreamIdPathSegment(id)}`;
  return which === 'get' ? path : `${path}/cancel`;
}

export function sameOrigin(url: string, base: string): boolean {
  try {
    return new URL(url).origin === new URL(base).origin;
  } catch {
    return false;
  }
}
