import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { channelDefaults } from '../config/defaults.js';
import type { ChannelDefinition, ProbeSettings } from '../config/types.js';
import type { ProviderRegistry } from '../providers/registry.js';
import type { Provider } from '../providers/types.js';
import { Catalog } from '../routing/catalog.js';
import { ChannelRegistry } from '../routing/channel-registry.js';
import { CircuitBreaker } from '../routing/circuit-breaker.js';
import { ChannelProber, type ProbeOutcome } from './channel-prober.js';

const provider: Provider = { name: 'openai', operations: new Set(['chat']) };
const providers = { get: () => provider } as unknown as ProviderRegistry;
const PROBING: ProbeSettings = { enabled: true, intervalSeconds: 60, autoEnable: false };

function channel(name: string, probe?: ProbeSettings, enabled = true): ChannelDefinition {
  return { ...channelDefaults(), name, provider: 'openai', models: ['m'], enabled, ...(probe && { probe }) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const passed: ProbeOutcome = { ok: true, latencyMs: 3, model: 'm', message: 'ok' };

describe('ChannelProber', () => {
  let prober: ChannelProber | undefined;
  afterEach(() => prober?.stop());

  const start = (
    definitions: ChannelDefinition[],
    probe: (name: string) => Promise<ProbeOutcome>,
    options: { maxConcurrent?: number; breaker?: CircuitBreaker } = {},
  ) => {
    const registry = new ChannelRegistry({ providers, catalog: new Catalog(), sandboxFallback: false }, definitions);
    const breaker = options.breaker ?? new CircuitBreaker(5, 60_000);
    prober = new ChannelProber({
      registry,
      breaker,
      probe: (c) => probe(c.name),
      switchChannel: async () => false,
      logger: pino({ level: 'silent' }),
      intervalMs: 10,
      maxConcurrent: options.maxConcurrent,
    });
    prober.start();
    return { registry, breaker, prober };
  };

  it('holds no timer while no channel asks for probes, and one per probed channel', () => {
    const { registry, prober } = start([channel('a'), channel('b', { ...PROBING, enabled: false })], async () => passed);
    expect(prober.probedChannels).toBe(0);
    registry.replace([channel('a', PROBING), channel('b', PROBING), channel('off', PROBING, false)]);
    // An operator's disabled channel is not probed.
    expect(prober.probedChannels).toBe(2);
    registry.replace([channel('a')]);
    expect(prober.probedChannels).toBe(0);
  });

  it('probes each channel one at a time, at most maxConcurrent at once', async () => {
    let inFlight = 0;
    let most = 0;
    const perChannel = new Map<string, number>();
    let overlapped = false;
    const names = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];
    start(
      names.map((name) => channel(name, PROBING)),
      async (name) => {
        inFlight++;
        most = Math.max(most, inFlight);
        if ((perChannel.get(name) ?? 0) > 0) overlapped = true;
        perChannel.set(name, (perChannel.get(name) ?? 0) + 1);
        await sleep(15);
        perChannel.set(name, (perChannel.get(name) ?? 0) - 1);
        inFlight--;
        return passed;
      },
      { maxConcurrent: 2 },
    );
    await sleep(300);
    expect(most).toBe(2);
    expect(overlapped).toBe(false);
    const health = prober?.snapshot() ?? [];
    expect(health.map((h) => h.name)).toEqual(names);
    expect(health.every((h) => h.recentProbes.length >= 2 && h.recentProbes.length <= 10)).toBe(true);
  });

  it('closes an open circuit when a probe passes, and counts a failed probe against it', async () => {
    const breaker = new CircuitBreaker(1, 60_000);
    breaker.failure('up');
    let healthy = false;
    start(
      [channel('up', PROBING)],
      async () =>
        healthy ? passed : { ok: false, latencyMs: 1, model: 'm', message: 'HTTP 503', status: 503, errorType: 'upstream.overloaded', retryable: true },
      { breaker },
    );
    await sleep(60);
    expect(breaker.state('up')).toBe('open');
    expect(prober?.snapshot()[0]).toMatchObject({ breaker: 'open', probeOk: false });
    healthy = true;
    await sleep(60);
    expect(breaker.state('up')).toBe('closed');
    expect(prober?.snapshot()[0]).toMatchObject({ breaker: 'closed', probeOk: true, lastProbeLatencyMs: 3 });
  });

  it('records a channel without a model to probe as a failed probe that leaves the circuit alone', async () => {
    const { breaker } = start([channel('odd', PROBING)], async () => {
      throw new (await import('../core/errors.js')).GatewayError('invalid_request', 'The channel "odd" serves no chat or embedding model by a concrete name.');
    });
    await sleep(50);
    expect(prober?.snapshot()[0].recentProbes[0]).toMatchObject({ ok: false, errorType: 'client.invalid_request' });
    expect(breaker.state('odd')).toBe('closed');
  });
});
