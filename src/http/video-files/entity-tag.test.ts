import { describe, expect, it } from 'vitest';
import { entityTagOf, noneMatchHits, rangeStillApplies } from './entity-tag.js';

const tag = '"abc123"';

describe('entityTagOf', () => {
  it('is the quoted SHA-256 when known, else the quoted media id', () => {
    expect(entityTagOf({ mediaId: 'm.mp4', kind: 'video', mime: 'video/mp4', bytes: 1, sha256: 'abc123' })).toBe(tag);
    expect(entityTagOf({ mediaId: 'm.mp4', kind: 'video', mime: 'video/mp4', bytes: 1 })).toBe('"m.mp4"');
  });
});

describe('noneMatchHits', () => {
  it('matches the tag in a list, weakly, and *', () => {
    expect(noneMatchHits(tag, tag)).toBe(true);
    expect(noneMatchHits(`"x", W/${tag}`, tag)).toBe(true);
    expect(noneMatchHits(' * ', tag)).toBe(true);
  });

  it('does not match other tags, unquoted text or nothing', () => {
    expect(noneMatchHits(undefined, tag)).toBe(false);
    expect(noneMatchHits('"abc1234"', tag)).toBe(false);
    expect(noneMatchHits('abc123', tag)).toBe(false);
    expect(noneMatchHits(`${' '.repeat(5000)}${tag}`, tag)).toBe(false);
  });
});

describe('rangeStillApplies', () => {
  it('applies without If-Range or with our tag; not with another tag, a weak tag or a date', () => {
    expect(rangeStillApplies(undefined, tag)).toBe(true);
    expect(rangeStillApplies(` ${tag}`, tag)).toBe(true);
    expect(rangeStillApplies('"other"', tag)).toBe(false);
    expect(rangeStillApplies(`W/${tag}`, tag)).toBe(false);
    expect(rangeStillApplies('Wed, 21 Oct 2015 07:28:00 GMT', tag)).toBe(false);
  });
});
