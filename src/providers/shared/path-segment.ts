/**
 * Values that go into an upstream URL path, each as whole segments: percent-encoded, and never
 * empty, `.` or `..` (which no encoding hides: servers resolve `%2e%2e` as `..` too). A model id
 * (the client's, after the channel's rewrite) that is not plain segments is the client's 400,
 * raised before anything is sent; an id the upstream handed back (a task or prediction id) that
 * cannot be a segment is the upstream's fault. Used by every provider that builds a path from
 * either; `core/model-id-path.ts` is the gateway-wide rule these stricter ones build on.
 */
import { quoteValue } from '../../core/describe-value.js';
import { GatewayError } from '../../core/errors.js';

/** Characters a model id never carries into a path segment (besides the `/` between segments): escapes, query, fragment. */
const NOT_IN_A_MODEL_SEGMENT = /[\\?#%]/;
/** Enough for every vendor's path; a longer id is refused as the wrong count all the same. */
const MAX_SEGMENTS = 8;

interface ModelPathOptions {
  /** How many `/`-separated segments the vendor's path takes (Replicate's `owner/name`: 2); default 1. */
  segments?: number;
  /** Further characters the vendor's path gives a meaning (Gemini's `:` before the method). */
  reserved?: string;
}

/**
 * The upstream model id as `segments` encoded path segments joined by `/`; throws the client's
 * 400 (`invalid_model`) when it is not exactly that many plain segments. The message does not
 * echo the id: it is the channel's upstream name, not the one the client sent.
 */
export function modelPath(model: string, options: ModelPathOptions = {}): string {
  const parts = model.split('/', MAX_SEGMENTS + 1);
  const wanted = options.segments ?? 1;
  if (parts.length !== wanted) {
    throw badModel(wanted === 1 ? 'contains `/`' : `is not ${wanted} names separated by \`/\``);
  }
  const encoded: string[] = [];
  for (const part of parts) {
    if (isEmptyOrDotSegment(part)) throw badModel('has an empty, `.` or `..` path segment');
    if (NOT_IN_A_MODEL_SEGMENT.test(part)) throw badModel('contains `\\`, `?`, `#` or `%`');
    if (options.reserved && [...options.reserved].some((char) => part.includes(char))) throw badModel(`contains one of ${quoteValue(options.reserved)}`);
    const segment = encodeSegment(part);
    if (segment === undefined) throw badModel('is not well-formed Unicode');
    encoded.push(segment);
  }
  return encoded.join('/');
}

/** An id the upstream answered (task, prediction), as one encoded path segment of the next call. */
export function upstreamIdPathSegment(id: string): string {
  const segment = isEmptyOrDotSegment(id) ? undefined : encodeSegment(id);
  if (segment === undefined) {
    throw new GatewayError('upstream', `the upstream answered an id that cannot be used in a URL: ${quoteValue(id, 64)}`, {
      code: 'upstream_failed',
    });
  }
  return segment;
}

export function isEmptyOrDotSegment(value: string): boolean {
  return value === '' || value === '.' || value === '..';
}

/** `encodeURIComponent`, or undefined for a string with a lone surrogate (which it cannot encode). */
function encodeSegment(value: string): string | undefined {
  try {
    return encodeURIComponent(value);
  } catch {
    return undefined;
  }
}

function badModel(problem: string): GatewayError {
  return new GatewayError('invalid_request', `The model id cannot be sent to this channel's upstream: it ${problem}.`, {
    code: 'invalid_model',
    param: 'model',
  });
}
