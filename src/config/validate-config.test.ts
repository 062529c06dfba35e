import { describe, expect, it } from 'vitest';
import { PROVIDER_DESCRIPTORS } from '../providers/registry.js';
import type { ProviderDescriptor } from '../providers/types.js';
import { ConfigError, validateChannel } from './validate-config.js';

const fake: ProviderDescriptor = {
  name: 'acme',
  operations: ['chat'],
  defaultBaseUrl: 'https://api.acme.test/v2',
  factory: () => ({}),
};

describe('validateChannel', () => {
  it('accepts every registered provider', () => {
    for (const descriptor of PROVIDER_DESCRIPTORS) {
      const channel = validateChannel(
        { name: `c-${descriptor.name}`, provider: descriptor.name, baseUrl: descriptor.defaultBaseUrl ? undefined : 'http://127.0.0.1:1/v1' },
        'channels[0]',
        PROVIDER_DESCRIPTORS,
      );
      expect(channel.provider).toBe(descriptor.name);
    }
  });

  it('checks the options a provider declares, naming the option, and passes the others as they are', () => {
    const bedrock = (options: unknown) => validateChannel({ name: 'b', provider: 'bedrock', options }, 'channels[1]', PROVIDER_DESCRIPTORS);
    expect(bedrock({ region: 'eu-west-1', anything: { nested: true } }).options).toEqual({ region: 'eu-west-1', anything: { nested: true } });
    expect(() => bedrock({ region: 'eu west 1' })).toThrow('channels[1].options.region must be an AWS region such as us-east-1');
    expect(() => bedrock({ region: 7 })).toThrow('channels[1].options.region must be an AWS region');
    expect(() => bedrock(['region'])).toThrow('channels[1].options must be a mapping');
    // A stored channel is held only to a mapping, so a rule added later never stops a start.
    expect(validateChannel({ name: 'b', provider: 'bedrock', options: { region: 7 } }, 's', PROVIDER_DESCRIPTORS, { stored: true }).options).toEqual({
      region: 7,
    });
    const declared: ProviderDescriptor = {
      ...fake,
      channelOptions: { n: { type: 'integer', expected: 'a whole number' }, on: { type: 'boolean', expected: 'true or false' } },
    };
    expect(() => validateChannel({ name: 'a', provider: 'acme', options: { n: 1.5 } }, 'c', [declared])).toThrow('c.options.n must be a whole number');
    expect(() => validateChannel({ name: 'a', provider: 'acme', options: { on: 'yes' } }, 'c', [declared])).toThrow('c.options.on must be true or false');
    expect(validateChannel({ name: 'a', provider: 'acme', options: { n: 2, on: true } }, 'c', [declared]).options).toEqual({ n: 2, on: true });
  });

  it('refuses an unknown provider, listing the registered ones', () => {
    const attempt = () => validateChannel({ name: 'x', provider: 'acme' }, 'channels[3]', PROVIDER_DESCRIPTORS);
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/channels\[3\]\.provider must be one of openai, openai-compatible, azure-openai, anthropic, .*sandbox.*, got "acme"/);
  });

  it('takes the provider list and default base URL from the descriptors it is given', () => {
    expect(validateChannel({ name: 'a', provider: 'acme' }, 'c', [fake])).toMatchObject({ provider: 'acme', baseUrl: 'https://api.acme.test/v2' });
    expect(() => validateChannel({ name: 'o', provider: 'openai' }, 'c', [fake])).toThrow(/must be one of acme, got "openai"/);
  });

  it('fills the default base URL of the provider, and requires one where the provider has none', () => {
    expect(validateChannel({ name: 'g', provider: 'gemini' }, 'c', PROVIDER_DESCRIPTORS).baseUrl).toBe('https://generativelanguage.googleapis.com');
    expect(validateChannel({ name: 'g', provider: 'gemini', baseUrl: '' }, 'c', PROVIDER_DESCRIPTORS).baseUrl).toBe(
      'https://generativelanguage.googleapis.com',
    );
    expect(() => validateChannel({ name: 'l', provider: 'openai-compatible' }, 'c', PROVIDER_DESCRIPTORS)).toThrow(/c\.baseUrl must be an http\(s\) URL/);
    expect(validateChannel({ name: 's', provider: 'sandbox' }, 'c', PROVIDER_DESCRIPTORS).baseUrl).toBe('');
  });
});
