import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/load-config.js';
import { toRuntimeChannel } from '../../routing/runtime-channel.js';
import { arkModelFor } from './ark-models.js';
import { arkDescriptor } from './index.js';
import { createProvider } from '../create-provider.js';

describe('ark descriptor', () => {
  it('serves video.generate through tasks only, on Ark’s Beijing host by default', async () => {
    const provider = await createProvider(arkDescriptor);
    expect(arkDescriptor.operations).toEqual(['video.generate']);
    expect([...provider.tasks!.operations]).toEqual(['video.generate']);
    expect(provider.chat).toBeUndefined();
    expect(provider.images).toBeUndefined();
    expect(arkDescriptor.defaultBaseUrl).toBe('https://ark.cn-beijing.volces.com');
  });

  it('ARK_API_KEY makes a channel serving the videogen2 ids and Seedance names', () => {
    const config = loadConfig({ env: { ARK_API_KEY: 'ark-key' }, providers: [arkDescriptor] });
    expect(config.channels).toEqual([
      expect.objectContaining({
        name: 'ark-env',
        provider: 'ark',
        apiKey: 'ark-key',
        baseUrl: 'https://ark.cn-beijing.volces.com',
        models: ['videogen2-*', 'videogen2-1-0-lite', 'videogen2-video-1', 'doubao-seedance-*'],
      }),
    ]);
  });

  it('maps each public id to the Seedance model that runs it (lite split by whether an image came)', async () => {
    const [definition] = loadConfig({ env: { ARK_API_KEY: 'k', ARK_BASE_URL: 'http://127.0.0.1:9/' }, providers: [arkDescriptor] }).channels;
    expect(definition.baseUrl).toBe('http://127.0.0.1:9');
    const channel = toRuntimeChannel(definition, await createProvider(arkDescriptor), false);
    const runs = (model: string, hasImages: boolean) => arkModelFor(channel.upstreamModel(model), hasImages);
    expect(runs('videogen2-1-0-lite', false)).toBe('doubao-seedance-1-0-lite-t2v-250428');
    expect(runs('videogen2-1-0-lite', true)).toBe('doubao-seedance-1-0-lite-i2v-250428');
    expect(runs('videogen2-video-1', false)).toBe('doubao-seedance-1-0-pro-250528');
    expect(runs('videogen2-1-0-lite-i2v-250428', true)).toBe('doubao-seedance-1-0-lite-i2v-250428');
    expect(runs('videogen2-1-0-lite-t2v-250428', false)).toBe('doubao-seedance-1-0-lite-t2v-250428');
    expect(runs('doubao-seedance-1-0-pro-fast-251015', false)).toBe('doubao-seedance-1-0-pro-fast-251015');
    for (const model of ['videogen2-1-0-lite', 'videogen2-video-1', 'videogen2-1-0-lite-i2v-250428', 'doubao-seedance-1-5-pro-251215']) {
      expect(channel.matches(model)).toBe(true);
    }
    expect(channel.matches('videogen1-video-01')).toBe(false);
  });
});
