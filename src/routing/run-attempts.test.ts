import { describe, expect, it } from 'vitest';
import { channelDefaults } from '../config/defaults.js';
import { GatewayError } from '../core/errors.js';
import type { RouteInfo } from '../core/route.js';
import type { Provider } from '../providers/types.js';
import { CircuitBreaker } from './circuit-breaker.js';
import { orderAttempts } from './order-attempts.js';
import { runAttempts } from './run-attempts.js';
import { type RuntimeChannel, toRuntimeChannel } from './runtime-channel.js';

const provider: Provider = { name: 'openai', operations: new Set(['chat']) };

function channel(name: string, priority = 0): RuntimeChannel {
  return toRuntimeChannel({ ...channelDefaults(), name, provider: 'openai', models: ['m'], priority }, provider, false);
}

function context(breaker: CircuitBreaker, signal = new AbortController().signal) {
  const routes: RouteInfo[] = [];
  return { routes, context: { breaker, model: 'm', requestId: 'r', signal, onAttempt: (route: RouteInfo) => void routes.push(route) } };
}

const retryable = () => new GatewayError('upstream', 'boom', { retryable: true });

/** A breaker whose circuit for `a` is open and past its cooldown: the next attempt is the half-open trial. */
function halfOpen(): { breaker: CircuitBreaker; advance: (ms: number) => void } {
  let now = 0;
  const breaker = new CircuitBreaker(1, 100, () => now);
  breaker.failure('a');
  now = 100;
  return { breaker, advance: (ms) => (now += ms) };
}

describe('runAttempts', () => {
  it('fails over on retryable errors in plan order and returns the first success', async () => {
    const breaker = new CircuitBreaker(5, 1000);
    const { routes, context: ctx } = context(breaker);
    const value = await runAttempts([channel('a'), channel('b')], ctx, async (c) => {
      if (c.name === 'a') throw retryable();
      return c.name;
    });
    expect(value).toBe('b');
    expect(routes.map((r) => [r.channel, r.attempts])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
  });

  it('returns a non-retryable error at once without trying the next channel', async () => {
    const { routes, context: ctx } = context(new CircuitBreaker(5, 1000));
    const tried: string[] = [];
    await expect(
      runAttempts([channel('a'), channel('b')], ctx, async (c) => {
        tried.push(c.name);
        throw new GatewayError('invalid_request', 'bad field');
      }),
    ).rejects.toMatchObject({ kind: 'invalid_request' });
    expect(tried).toEqual(['a']);
    expect(routes).toHaveLength(1);
  });

  it('half-open trial ending in success closes the circuit', async () => {
    const { breaker } = halfOpen();
    await runAttempts([channel('a')], context(breaker).context, async () => 'ok');
    expect(breaker.isOpen('a')).toBe(false);
  });

  it('half-open trial ending in a retryable failure reopens the circuit', async () => {
    const { breaker, advance } = halfOpen();
    await expect(runAttempts([channel('a')], context(breaker).context, async () => Promise.reject(retryable()))).rejects.toThrow('boom');
    expect(breaker.isOpen('a')).toBe(true);
    advance(99);
    expect(breaker.isOpen('a')).toBe(true);
    advance(1);
    expect(breaker.isOpen('a')).toBe(false);
  });

  it('half-open trial ending in a non-retryable error releases the trial (no channel left open forever)', async () => {
    const { breaker } = halfOpen();
    await expect(runAttempts([channel('a')], context(breaker).context, async () => Promise.reject(new GatewayError('invalid_request', 'bad')))).rejects.toThrow(
      'bad',
    );
    expect(breaker.isOpen('a')).toBe(false);
    breaker.beginAttempt('a');
    expect(breaker.isOpen('a')).toBe(true);
  });

  it('half-open trial ended by a client abort releases the trial', async () => {
    const { breaker } = halfOpen();
    const abort = new AbortController();
    await expect(
      runAttempts([channel('a'), channel('b')], context(breaker, abort.signal).context, async () => {
        abort.abort();
        throw retryable();
      }),
    ).rejects.toThrow('boom');
    expect(breaker.isOpen('a')).toBe(false);
  });

  it('with every circuit open, still tries at most maxAttempts channels, healthy ones first', async () => {
    const breaker = new CircuitBreaker(1, 60_000);
    breaker.failure('a');
    breaker.failure('b');
    const plan = orderAttempts([channel('a', 10), channel('b', 10), channel('c', 0), channel('d', 0)], 3, (name) => breaker.isOpen(name));
    expect(
      plan
        .map((c) => c.name)
        .slice(0, 2)
        .sort(),
    ).toEqual(['c', 'd']);
    expect(plan).toHaveLength(3);
    const tried: string[] = [];
    await expect(
      runAttempts(plan, context(breaker).context, async (c) => {
        tried.push(c.name);
        throw retryable();
      }),
    ).rejects.toThrow('boom');
    expect(tried).toHaveLength(3);
  });
});

describe('attempt warnings', () => {
  it('collects what the provider dropped on the route that answered, once each', async () => {
    const { context: ctx } = context(new CircuitBreaker(5, 1000));
    const route = await runAttempts([channel('a')], ctx, async (_c, attempt, r) => {
      attempt.warn?.('seed: not supported by this upstream');
      attempt.warn?.('seed: not supported by this upstream');
      attempt.warn?.('logprobs: dropped');
      return r;
    });
    expect(route.warnings).toEqual(['seed: not supported by this upstream', 'logprobs: dropped']);
  });
});
