/**
 * Which surface's error shape a request gets when no surface route handled it (unknown routes,
 * unparsable requests, framing errors): decided by its path alone. Each error family (from the
 * surface registry, plus the admin API's) claims its path prefixes; `/v1/models/{model}:{action}`
 * is Gemini's; everything else is the fallback's (OpenAI's: the task families without a family
 * of their own answer in its shape, as Ark does). The shared `/v1/models` routes go by the
 * caller's headers, as `surfaces/models/shared-model-routes.ts` does for its answers.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ErrorRenderer } from './error-renderer.js';

/** An error shape and the paths whose unanswered requests get it. */
export interface ErrorFamily {
  name: string;
  /** `/x` covers `/x` and `/x/…`, not `/xy`. */
  pathPrefixes: readonly string[];
  render: ErrorRenderer;
}

export type ModelsDialect = 'openai' | 'anthropic' | 'gemini';

/** The error families of the gateway, compiled: app.ts builds it once and hands it to the http/ installers. */
export interface ErrorFamilies {
  /** The family name of a request URL (query string allowed); `headers` refine the shared model routes. */
  familyOf(url: string, headers?: IncomingHttpHeaders): string;
  /** The renderer of a request's family. */
  rendererFor(url: string, headers?: IncomingHttpHeaders): ErrorRenderer;
  /** The fallback family's renderer (routes of no surface, such as `/media`). */
  readonly fallback: ErrorRenderer;
}

/** The dialect of a caller of the shared `/v1/models` routes: a Gemini key, then Anthropic headers, else OpenAI. */
export function modelsDialect(headers: IncomingHttpHeaders, hasKeyQuery: boolean): ModelsDialect {
  if (headers['x-goog-api-key'] !== undefined || hasKeyQuery) return 'gemini';
  if (headers['anthropic-version'] !== undefined || headers['x-api-key'] !== undefined) return 'anthropic';
  return 'openai';
}

/** True for `/v1/models` and `/v1/models/{id}` (no action), the paths the shared model routes serve. */
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

/**
 * Compiles the families; `fallback` names the one of every other path. The three model-list
 * dialects must be among them: the shared `/v1/models` routes answer in each.
 */
export function errorFamilies(families: readonly ErrorFamily[], fallback: string): ErrorFamilies {
  const byName = new Map(families.map((family) => [family.name, family]));
  for (const name of [fallback, 'openai', 'anthropic', 'gemini']) {
    if (!byName.has(name)) throw new Error(`no error family named ${name}`);
  }
  const familyOf = (url: string, headers?: IncomingHttpHeaders): string => {
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    // Prefixes do not overlap, so the first family that claims the path is the only one.
    const claimed = families.find((family) => family.pathPrefixes.some((prefix) => under(path, prefix)));
    if (claimed) return claimed.name;
    if (path.startsWith('/v1/models/') && hasActionColon(path.slice('/v1/models/'.length))) return 'gemini';
    if (headers !== undefined && isSharedModelsPath(path)) {
      const query = queryAt === -1 ? '' : url.slice(queryAt);
      return modelsDialect(headers, /[?&]key=/.test(query));
    }
    return fallback;
  };
  const renderer = (name: string): ErrorRenderer => (byName.get(name) as ErrorFamily).render;
  return {
    familyOf,
    rendererFor: (url, headers) => renderer(familyOf(url, headers)),
    fallback: renderer(fallback),
  };
}
