import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { channelDefaults } from '../config/defaults.js';
import type { ChannelDefinition } from '../config/types.js';
import { GatewayError } from '../core/errors.js';
import type { UsageRecorder } from '../ledger/usage-recorder.js';
import type { ProviderRegistry } from '../providers/registry.js';
import type { Provider } from '../providers/types.js';
import { Catalog } from '../routing/catalog.js';
import { ChannelRegistry } from '../routing/channel-registry.js';
import { CircuitBreaker } from '../routing/circuit-breaker.js';
import { LocalInvalidationBus } from '../store/invalidation-bus.js';
import { CallLifecycle } from './call-lifecycle.js';
import { LiveChannels } from './live-channels.js';

const provider: Provider = { name: 'openai', operations: new Set(['chat']) };
const providers = { get: () => provider } as unknown as ProviderRegistry;
const silent = pino({ level: 'silent' });

function generation(tag: string, count: number): ChannelDefinition[] {
  return Array.from({ length: count }, (_, i) => ({ ...channelDefaults(), name: `${tag}-${i}`, provider: 'openai', models: ['textmodel-b-*'] }));
}

describe('live channel registry', () => {
  it('replacing channels under load: every call sees one whole generation, never a mix', async () => {
    const registry = new ChannelRegistry({ providers, catalog: new Catalog(), sandboxFallback: false }, generation('g0', 3));
    // Enough failures needed to open a circuit that failover keeps trying every channel of the plan.
    const lifecycle = new CallLifecycle({
      registry,
      catalog: new Catalog(),
      recorder: { begin: () => undefined, record: async () => undefined } as unknown as UsageRecorder,
      breaker: new CircuitBreaker(1_000_000, 1),
      maxAttempts: 3,
    });
    let replacing = true;
    let generations = 0;
    const swapper = (async () => {
      while (replacing) {
        generations++;
        registry.replace(generation(`g${generations}`, 3));
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const tried: string[][] = await Promise.all(
      Array.from({ length: 300 }, async (_, n) => {
        await new Promise((resolve) => setTimeout(resolve, n % 20));
        const call = await lifecycle.admit({
          key: { id: 'k', name: 'k', models: null, isMaster: false, accountId: null },
          surface: 'openai',
          requestId: `r${n}`,
          signal: new AbortController().signal,
          model: 'textmodel-b-4o',
          operation: 'chat',
          stream: false,
        });
        const names: string[] = [];
        await call
          .attempt(async (channel) => {
            names.push(channel.name);
            // Wait between attempts so replacements land in the middle of calls.
            await new Promise((resolve) => setTimeout(resolve, 1 + (n % 3)));
            throw new GatewayError('upstream', 'try the next', { retryable: true });
          })
          .catch(() => undefined);
        return names;
      }),
    );
    replacing = false;
    await swapper;
    expect(generations).toBeGreaterThan(3);
    const mixed = tried.filter((names) => new Set(names.map((name) => name.split('-')[0])).size !== 1);
    expect(mixed).toEqual([]);
    expect(tried.every((names) => names.length === 3)).toBe(true);
    expect(new Set(tried.map((names) => names[0].split('-')[0])).size).toBeGreaterThan(1);
  });

  it('a channels invalidation reloads stored channels; configured ones stay and win name clashes', async () => {
    const registry = new ChannelRegistry({ providers, catalog: new Catalog(), sandboxFallback: false });
    const bus = new LocalInvalidationBus();
    let stored: ChannelDefinition[] = generation('db', 1);
    const live = new LiveChannels(registry, { configured: generation('yaml', 1), stored: async () => stored }, bus, silent);
    await live.start();
    expect(registry.channels.map((c) => c.name)).toEqual(['yaml-0', 'db-0']);
    stored = [...generation('db', 2), { ...generation('yaml', 1)[0], weight: 99 }];
    bus.publish('channels');
    await expect.poll(() => registry.channels.map((c) => c.name)).toEqual(['yaml-0', 'db-0', 'db-1']);
    expect(registry.channels[0].weight).toBe(1);
    live.stop();
  });

  it('a failing reload keeps the channels in force', async () => {
    const registry = new ChannelRegistry({ providers, catalog: new Catalog(), sandboxFallback: false });
    const bus = new LocalInvalidationBus();
    let fail = false;
    const live = new LiveChannels(
      registry,
      { configured: [], stored: async () => (fail ? Promise.reject(new Error('db down')) : generation('db', 2)) },
      bus,
      silent,
    );
    await live.start();
    fail = true;
    await expect(live.reload()).rejects.toThrow('db down');
    expect(registry.channels.map((c) => c.name)).toEqual(['db-0', 'db-1']);
  });

  it('at start, an unreadable stored channel stops the start with its error, unlogged (the caller reports it)', async () => {
    const registry = new ChannelRegistry({ providers, catalog: new Catalog(), sandboxFallback: false });
    const logged: string[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => logged.push(line) });
    const live = new LiveChannels(
      registry,
      { configured: [], stored: async () => Promise.reject(new Error('channel "x" cannot be decrypted')) },
      new LocalInvalidationBus(),
      logger,
    );
    await expect(live.start()).rejects.toThrow('channel "x" cannot be decrypted');
    expect(logged.filter((line) => line.includes('"level":50'))).toEqual([]);
  });

  it('settled() waits for the reloads under way', async () => {
    const registry = new ChannelRegistry({ providers, catalog: new Catalog(), sandboxFallback: false });
    const bus = new LocalInvalidationBus();
    let generationNumber = 1;
    const live = new LiveChannels(registry, { configured: [], stored: async () => generation('db', generationNumber) }, bus, silent);
    await live.start();
    generationNumber = 3;
    bus.publish('channels');
    await live.settled();
    expect(registry.channels.map((c) => c.name)).toEqual(['db-0', 'db-1', 'db-2']);
    live.stop();
  });
});
