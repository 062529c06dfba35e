import { describe, expect, it } from 'vitest';
import { mapLumaError } from './map-luma-error.js';

describe('mapLumaError', () => {
  it('reads a string detail and FastAPI validation lists', () => {
    expect(mapLumaError(400, { detail: 'Insufficient credits' }, {})).toMatchObject({ kind: 'invalid_request', retryable: false, upstreamStatus: 400 });
    const validation = mapLumaError(422, { detail: [{ loc: ['body', 'keyframes', 'frame0'], msg: 'Invalid image keyframe' }, { msg: 'bad' }, 7] }, {});
    expect(validation).toMatchObject({ kind: 'invalid_request', message: 'Luma answered HTTP 422: keyframes.frame0: Invalid image keyframe; bad' });
  });

  it('keeps credentials, rate limits and server errors retryable', () => {
    expect(mapLumaError(401, { detail: 'Invalid API key provided' }, {})).toMatchObject({ kind: 'upstream', retryable: true });
    expect(mapLumaError(403, 'forbidden', {})).toMatchObject({ kind: 'upstream', retryable: true });
    expect(mapLumaError(429, { detail: 'slow down' }, { 'retry-after': '12' })).toMatchObject({ kind: 'rate_limit', retryable: true, retryAfter: 12 });
    expect(mapLumaError(500, undefined, {})).toMatchObject({ kind: 'upstream', retryable: true, message: 'Luma answered HTTP 500' });
    expect(mapLumaError(404, { detail: 'Not Found' }, {})).toMatchObject({ kind: 'upstream', retryable: true });
  });

  it('never repeats the key or a URL from the answer', () => {
    const error = mapLumaError(401, { detail: 'key luma-abcdefgh123 refused at https://api.lumalabs.ai/x' }, {}, ['luma-abcdefgh123']);
    expect(error.message).not.toContain('luma-abcdefgh123');
    expect(error.message).not.toContain('lumalabs.ai');
  });
});
