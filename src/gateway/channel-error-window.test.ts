import { describe, expect, it } from 'vitest';
import { GatewayError } from '../core/errors.js';
import { ChannelErrorWindow } from './channel-error-window.js';

function upstream503(): GatewayError {
  const error = new GatewayError('upstream', 'overloaded', { upstreamStatus: 503 });
  error.classifyAsUpstream();
  return error;
}

describe('ChannelErrorWindow', () => {
  it('counts attempts and upstream errors per channel over the last five minutes only', () => {
    let now = 1_000_000;
    const window = new ChannelErrorWindow(() => now);
    window.record('a');
    window.record('a', upstream503());
    window.record('b', upstream503());
    expect(window.counts('a')).toEqual({ calls: 2, errors: 1 });
    expect(window.counts('b')).toEqual({ calls: 1, errors: 1 });
    now += 4 * 60_000;
    window.record('a', upstream503());
    expect(window.counts('a')).toEqual({ calls: 3, errors: 2 });
    now += 90_000; // the first two are now older than five minutes
    expect(window.counts('a')).toEqual({ calls: 1, errors: 1 });
    now += 10 * 60_000;
    expect(window.counts('a')).toEqual({ calls: 0, errors: 0 });
  });

  it("counts the client's own failures as calls, not upstream errors", () => {
    const window = new ChannelErrorWindow(() => 0);
    const bad = new GatewayError('invalid_request', 'bad field');
    bad.classifyAsUpstream();
    window.record('a', bad);
    window.record('a', new GatewayError('invalid_request', 'gone', { code: 'client_closed' }));
    expect(window.counts('a')).toEqual({ calls: 2, errors: 0 });
  });

  it('forgets channels no longer in force', () => {
    const window = new ChannelErrorWindow(() => 0);
    window.record('gone', upstream503());
    window.keepOnly(new Set(['kept']));
    expect(window.counts('gone')).toEqual({ calls: 0, errors: 0 });
  });
});
