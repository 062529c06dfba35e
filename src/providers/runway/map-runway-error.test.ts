import { describe, expect, it } from 'vitest';
import { mapRunwayError } from './map-runway-error.js';

describe('mapRunwayError', () => {
  it('reads {error} and its validation issues', () => {
    const error = mapRunwayError(
      400,
      { error: 'Validation of body failed', issues: [{ path: ['ratio'], message: 'Invalid enum value' }, { message: 'x' }, null] },
      {},
    );
    expect(error).toMatchObject({
      kind: 'invalid_request',
      retryable: false,
      message: 'Runway answered HTTP 400: Validation of body failed; ratio: Invalid enum value; x',
    });
  });

  it('keeps credentials, rate limits and load shedding retryable', () => {
    expect(mapRunwayError(401, { error: 'Incorrect API key provided' }, {})).toMatchObject({ kind: 'upstream', retryable: true });
    expect(mapRunwayError(429, {}, { 'retry-after': '30' })).toMatchObject({ kind: 'rate_limit', retryable: true, retryAfter: 30 });
    expect(mapRunwayError(502, 'bad gateway', {})).toMatchObject({ kind: 'upstream', retryable: true });
    expect(mapRunwayError(503, undefined, {})).toMatchObject({ retryable: true });
    expect(mapRunwayError(404, { error: 'Not found' }, {})).toMatchObject({ kind: 'upstream', retryable: true });
  });

  it('never repeats the key or a URL from the answer', () => {
    const key = `key_${'0'.repeat(128)}`;
    const error = mapRunwayError(400, { error: `key ${key} cannot fetch https://cdn.example/x.png` }, {}, [key]);
    expect(error.message).not.toContain(key);
    expect(error.message).not.toContain('cdn.example');
  });
});
