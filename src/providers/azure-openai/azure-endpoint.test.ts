import { describe, expect, it } from 'vitest';
import type { ChannelConfig } from '../types.js';
import { azureUrl } from './azure-endpoint.js';

function channel(baseUrl: string, options: Record<string, unknown> = {}): ChannelConfig {
  return { name: 'a', provider: 'azure-openai', baseUrl, apiKey: 'k', headers: {}, timeoutMs: 1000, options };
}

describe('azureUrl', () => {
  it('uses the v1 API by default, whether or not the operator pasted its path', () => {
    for (const base of [
      'https://r.openai.azure.com',
      'https://r.openai.azure.com/',
      'https://r.openai.azure.com/openai/v1',
      'https://r.openai.azure.com/openai',
    ]) {
      expect(azureUrl(channel(base), '/chat/completions', 'dep')).toBe('https://r.openai.azure.com/openai/v1/chat/completions');
    }
    expect(azureUrl(channel('https://r.openai.azure.com', { apiVersion: 'v1' }), '/embeddings', 'dep')).toBe('https://r.openai.azure.com/openai/v1/embeddings');
  });

  it('puts the deployment in the path with an api-version, except for Responses', () => {
    const dated = channel('https://r.openai.azure.com', { apiVersion: '2024-10-21' });
    expect(azureUrl(dated, '/images/generations', 'my image/dep')).toBe(
      'https://r.openai.azure.com/openai/deployments/my%20image%2Fdep/images/generations?api-version=2024-10-21',
    );
    expect(azureUrl(dated, '/responses', 'dep')).toBe('https://r.openai.azure.com/openai/responses?api-version=2024-10-21');
  });
});
