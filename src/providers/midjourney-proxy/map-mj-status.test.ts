import { describe, expect, it } from 'vitest';
import { mapMjStatus } from './map-mj-status.js';

describe('mapMjStatus', () => {
  it('maps every status the proxies answer', () => {
    expect(mapMjStatus('NOT_START')).toBe('submitted');
    expect(mapMjStatus('SUBMITTED')).toBe('submitted');
    expect(mapMjStatus('IN_PROGRESS')).toBe('running');
    expect(mapMjStatus('SUCCESS')).toBe('succeeded');
    expect(mapMjStatus('FAILURE')).toBe('failed');
    expect(mapMjStatus('CANCEL')).toBe('canceled');
    expect(mapMjStatus('MODAL')).toBe('running');
  });

  it('answers unknown for anything else, including inherited object keys and other cases', () => {
    for (const status of ['QUEUED', 'success', 'toString', '__proto__', '', undefined, null, 3]) expect(mapMjStatus(status)).toBe('unknown');
  });
});
