import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/load-config.js';
import { toRuntimeChannel } from '../../routing/runtime-channel.js';
import { minimaxDescriptor } from './index.js';
import { createProvider } from '../create-provider.js';

describe('minimax descriptor', () => {
  it('serves video.generate through tasks only, on api.minimax.io by default', async () => {
    const provider = await createProvider(minimaxDescriptor);
    expect(minimaxDescriptor.operations).toEqual(['video.generate']);
    expect([...provider.tasks!.operations]).toEqual(['video.generate']);
    expect(provider.chat).toBeUndefined();
    expect(provider.images).toBeUndefined();
    expect(minimaxDescriptor.defaultBaseUrl).toBe('https://api.minimax.io');
  });

  it('MINIMAX_API_KEY makes a channel that serves videogen1-* as MiniMax names and the upstream names as they are', async () => {
    const config = loadConfig({ env: { MINIMAX_API_KEY: 'mm-key' }, providers: [minimaxDescriptor] });
    expect(config.channels).toHaveLength(1);
    const definition = config.channels[0];
    expect(definition).toMatchObject({ name: 'minimax-env', provider: 'minimax', apiKey: 'mm-key', baseUrl: 'https://api.minimax.io' });
    const channel = toRuntimeChannel(definition, await createProvider(minimaxDescriptor), false);
    expect(channel.upstreamModel('videogen1-video-01')).toBe('video-01');
    expect(channel.upstreamModel('videogen1-MiniMax-Hailuo-02')).toBe('MiniMax-Hailuo-02');
    for (const model of ['videogen1-video-01', 'video-01', 'T2V-01', 'I2V-01-live', 'MiniMax-Hailuo-02', 'MiniMax-Hailuo-2.3-Fast']) {
      expect(channel.matches(model), model).toBe(true);
    }
    expect(channel.matches('videogen2-1-0-lite')).toBe(false);
    expect(channel.upstreamModel('MiniMax-Hailuo-02')).toBe('MiniMax-Hailuo-02');
  });

  it('MINIMAX_BASE_URL and MINIMAX_MODEL_REWRITE override the defaults', async () => {
    const config = loadConfig({
      env: { MINIMAX_API_KEY: 'k', MINIMAX_BASE_URL: 'https://api.minimaxi.com/', MINIMAX_MODEL_REWRITE: 'videogen1-=MiniMax-Hailuo-' },
      providers: [minimaxDescriptor],
    });
    const channel = toRuntimeChannel(config.channels[0], await createProvider(minimaxDescriptor), false);
    expect(config.channels[0].baseUrl).toBe('https://api.minimaxi.com');
    expect(channel.upstreamModel('videogen1-02')).toBe('MiniMax-Hailuo-02');
  });
});
