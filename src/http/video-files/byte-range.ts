/**
 * A `Range` request header (RFC 9110 §14) against a file of `size` bytes: the whole file, one
 * inclusive byte range, or unsatisfiable (416). Only a single range is served: a request for
 * several gets the whole file (200), which the RFC allows. A header that is not a valid
 * `bytes=` range set, or a unit other than bytes, is ignored (the whole file), as the RFC says.
 */
import type { ByteRange } from '../../media/media-store.js';

export type RangePlan = { kind: 'whole' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

/** Longer headers are not looked at (a real player sends a few dozen characters). */
const MAX_RANGE_HEADER_CHARS = 1_024;
/** More digits than this cannot be an offset into any file the gateway keeps. */
const MAX_DIGITS = 15;
const RANGE_SPEC = /^(\d*)-(\d*)$/;

const WHOLE: RangePlan = { kind: 'whole' };

export function planByteRange(header: string | undefined, size: number): RangePlan {
  if (header === undefined || header.length > MAX_RANGE_HEADER_CHARS) return WHOLE;
  const equals = header.indexOf('=');
  if (equals === -1 || header.slice(0, equals).trim().toLowerCase() !== 'bytes') return WHOLE;
  const specs = header
    .slice(equals + 1)
    .split(',')
    .map((spec) => spec.trim())
    .filter((spec) => spec !== '');
  if (specs.length !== 1) return WHOLE;
  const match = RANGE_SPEC.exec(specs[0]);
  if (!match || (match[1] === '' && match[2] === '')) return WHOLE;
  const first = match[1] === '' ? undefined : offset(match[1]);
  const last = match[2] === '' ? undefined : offset(match[2]);
  if (first === undefined) return suffix(last as number, size);
  if (last !== undefined && last < first) return WHOLE;
  if (first >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', range: { start: first, end: Math.min(last ?? size - 1, size - 1) } };
}

/** `-n`: the last n bytes (all of them when the file is shorter). */
function suffix(length: number, size: number): RangePlan {
  if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
  return { kind: 'partial', range: { start: Math.max(0, size - length), end: size - 1 } };
}

function offset(digits: string): number {
  return digits.length > MAX_DIGITS ? Number.POSITIVE_INFINITY : Number(digits);
}

/** The `Content-Range` value of a partial answer. */
export function contentRange(range: ByteRange, size: number): string {
  return `bytes ${range.start}-${range.end}/${size}`;
}
