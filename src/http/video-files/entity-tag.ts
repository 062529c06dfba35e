/**
 * The download routes' entity tag and the conditional headers that use it (RFC 9110 §8.8.3,
 * §13.1.2, §13.1.5). A stored result never changes, so its tag is its SHA-256 when the gateway
 * hashed it, else its media id (unique, never reused).
 */
import type { MediaRef } from '../../core/task.js';

/** Longer condition headers are not looked at (treated as not matching). */
const MAX_CONDITION_CHARS = 4_096;
const ENTITY_TAG = /(?:W\/)?"[^"]*"/g;

export function entityTagOf(ref: MediaRef): string {
  return `"${ref.sha256 ?? ref.mediaId}"`;
}

/** `If-None-Match`: `*` or a list of tags, compared weakly (a `W/` prefix does not matter). */
export function noneMatchHits(header: string | undefined, tag: string): boolean {
  if (header === undefined || header.length > MAX_CONDITION_CHARS) return false;
  if (header.trim() === '*') return true;
  return (header.match(ENTITY_TAG) ?? []).some((candidate) => candidate.replace(/^W\//, '') === tag);
}

/**
 * `If-Range`: the range applies only while the client's copy is current, i.e. the header is
 * our strong tag. A date (we send no `Last-Modified`) or a weak tag never matches, so the
 * whole file is sent.
 */
export function rangeStillApplies(header: string | undefined, tag: string): boolean {
  return header === undefined || header.trim() === tag;
}
