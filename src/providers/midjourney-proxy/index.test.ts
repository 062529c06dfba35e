import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config/config-error.js';
import { loadConfig } from '../../config/load-config.js';
import { validateChannel } from '../../config/validate-config.js';
import { midjourneyProxyDescriptor } from './index.js';
import { createProvider } from '../create-provider.js';

describe('midjourney-proxy descriptor', () => {
  it('serves the four image-task operations through tasks only', async () => {
    const provider = await createProvider(midjourneyProxyDescriptor);
    expect(midjourneyProxyDescriptor.operations).toEqual(['image.imagine', 'image.blend', 'image.describe', 'image.action']);
    expect([...provider.tasks!.operations]).toEqual([...midjourneyProxyDescriptor.operations]);
    expect(provider.chat).toBeUndefined();
    expect(provider.images).toBeUndefined();
    expect(midjourneyProxyDescriptor.defaultBaseUrl).toBeUndefined();
  });

  it('MJ_PROXY_API_SECRET with MJ_PROXY_BASE_URL makes a channel serving imgtask-*', () => {
    const config = loadConfig({
      env: { MJ_PROXY_API_SECRET: 'mj-secret', MJ_PROXY_BASE_URL: 'http://127.0.0.1:7/' },
      providers: [midjourneyProxyDescriptor],
    });
    expect(config.channels).toEqual([
      expect.objectContaining({
        name: 'midjourney-proxy-env',
        provider: 'midjourney-proxy',
        apiKey: 'mj-secret',
        baseUrl: 'http://127.0.0.1:7',
        models: ['imgtask-*'],
      }),
    ]);
  });

  it('MJ_PROXY_API_SECRET without MJ_PROXY_BASE_URL is a clear configuration error', () => {
    const load = () => loadConfig({ env: { MJ_PROXY_API_SECRET: 'mj-secret' }, providers: [midjourneyProxyDescriptor] });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow('MJ_PROXY_BASE_URL must be set: provider midjourney-proxy has no default base URL');
  });

  it('a configured channel must give the base URL of its proxy', () => {
    const entry = { name: 'mj', provider: 'midjourney-proxy', apiKey: 'k', models: ['imgtask-*'] };
    expect(() => validateChannel(entry, 'channels[0]', [midjourneyProxyDescriptor])).toThrow(/channels\[0\]\.baseUrl must be an http\(s\) URL/);
    expect(validateChannel({ ...entry, baseUrl: 'https://mj.example/mj/' }, 'channels[0]', [midjourneyProxyDescriptor]).baseUrl).toBe('https://mj.example/mj');
  });
});
