import { describe, expect, it } from 'vitest';
import { modelPath, upstreamIdPathSegment } from './path-segment.js';

function refusal(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('modelPath (finding 2: model ids in upstream paths)', () => {
  it('passes plain ids through, percent-encoding what a segment cannot hold', () => {
    expect(modelPath('gemini-2.5-flash')).toBe('gemini-2.5-flash');
    expect(modelPath('flux pro+1')).toBe('flux%20pro%2B1');
    expect(modelPath('black-forest-labs/flux-schnell', { segments: 2 })).toBe('black-forest-labs/flux-schnell');
  });

  it.each([
    ['gemini-2.5-flash/../gemini-2.5-pro', {}],
    ['x/../../../v1beta/cachedContents?', {}],
    ['x%2F..%2Fy', {}],
    ['%2e%2e', {}],
    ['x\\..\\y', {}],
    ['x?y', {}],
    ['x#y', {}],
    ['..', {}],
    ['.', {}],
    ['', {}],
    ['gemini-x:countTokens', { reserved: ':' }],
    ['\ud800', {}],
    ['flux-schnell', { segments: 2 }],
    ['owner/name/extra', { segments: 2 }],
    ['owner/..', { segments: 2 }],
    ['../name', { segments: 2 }],
    ['owner/', { segments: 2 }],
    ['a/b/c/d/e/f/g/h/i/j/k/l', { segments: 2 }],
  ])('refuses %j with the client 400 (%j)', (model, options) => {
    expect(refusal(() => modelPath(model, options))).toMatchObject({ kind: 'invalid_request', status: 400, code: 'invalid_model', param: 'model' });
  });

  it('does not echo the upstream model id in its message', () => {
    const error = refusal(() => modelPath('secret-upstream-name/../x')) as Error;
    expect(error.message).not.toContain('secret-upstream-name');
  });
});

describe('upstreamIdPathSegment (finding 2: upstream ids in poll and cancel paths)', () => {
  it('encodes whatever an upstream answered into one segment', () => {
    expect(upstreamIdPathSegment('abc-123_x')).toBe('abc-123_x');
    expect(upstreamIdPathSegment('a/../b')).toBe('a%2F..%2Fb');
    expect(upstreamIdPathSegment('a?b#c')).toBe('a%3Fb%23c');
    expect(upstreamIdPathSegment('%2e%2e')).toBe('%252e%252e');
  });

  it.each(['', '.', '..', '\udc00'])('refuses %j as an upstream failure', (id) => {
    expect(refusal(() => upstreamIdPathSegment(id))).toMatchObject({ kind: 'upstream', code: 'upstream_failed' });
  });
});
