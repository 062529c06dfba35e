/**
 * Which surface's error shape a request gets when no surface route handled it (unknown routes,
 * unparsable requests, framing errors): decided by its path alone — `/v1beta/…` and
 * `/v1/models/{model}:{action}` are Gemini's, `/v1/messages…` Anthropic's, `/imagegen2/…`
 * imagegen2's, `/imagegen1/…` imagegen1's, `/imgtask/…` and `/mj/…` imgtask's, `/videogen1/…`
 * videogen1's, `/videogen3/…` videogen3's, everything else OpenAI's (`/videogen2/…` and
 * `/v1/video/generations` included: those families answer in OpenAI's shape, as Ark does), `/admin/…` the admin API's. The shared `/v1/models` routes go by the caller's
 * headers, as `model-routes.ts` does for its answers.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ErrorRenderer } from './error-renderer.js';

export type ErrorFamily = 'openai' | 'anthropic' | 'gemini' | 'imagegen2' | 'imagegen1' | 'imgtask' | 'videogen1' | 'videogen3' | 'admin';

/** The error renderer of each surface; app.ts hands it to the http/ installers. */
export type ErrorRenderers = Record<ErrorFamily, ErrorRenderer>;

export type ModelsDialect = 'openai' | 'anthropic' | 'gemini';

/** The dialect of a caller of the shared `/v1/models` routes: a Gemini key, then Anthropic headers, else OpenAI. */
export function modelsDialect(headers: IncomingHttpHeaders, hasKeyQuery: boolean): ModelsDialect {
  if (headers['x-goog-api-key'] !== undefined || hasKeyQuery) return 'gemini';
  if (headers['anthropic-version'] !== undefined || headers['x-api-key'] !== undefined) return 'anthropic';
  return 'openai';
}

/** True for `/v1/models` and `/v1/models/{id}` (no action): the routes model-routes.ts serves. */
export function isSharedModelsPath(path: string): boolean {
  if (path === '/v1/models' || path === '/v1/models/') return true;
  if (!path.startsWith('/v1/models/')) return false;
  const rest = path.slice('/v1/models/'.length);
  return !rest.includes('/') && !hasActionColon(rest);
}

function hasActionColon(segment: string): boolean {
  return segment.includes(':') || /%3a/i.test(segment);
}

function under(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** The error family of a request URL (query string allowed); `headers` refine the shared model routes. */
export function errorFamilyOf(url: string, headers?: IncomingHttpHeaders): ErrorFamily {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  if (under(path, '/v1beta')) return 'gemini';
  if (under(path, '/admin')) return 'admin';
  if (under(path, '/v1/messages')) return 'anthropic';
  if (under(path, '/imagegen2')) return 'imagegen2';
  if (under(path, '/imgtask') || under(path, '/mj')) return 'imgtask';
  if (under(path, '/imagegen1')) return 'imagegen1';
  if (under(path, '/videogen1')) return 'videogen1';
  if (under(path, '/videogen3')) return 'videogen3';
  if (path.startsWith('/v1/models/')) {
    if (hasActionColon(path.slice('/v1/models/'.length))) return 'gemini';
  }
  if (headers !== undefined && isSharedModelsPath(path)) {
    const query = queryAt === -1 ? '' : url.slice(queryAt);
    return modelsDialect(headers, /[?&]key=/.test(query));
  }
  return 'openai';
}
