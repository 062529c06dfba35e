import { describe, expect, it } from 'vitest';
import { channelDefaults } from '../config/defaults.js';
import type { ChannelDefinition } from '../config/types.js';
import { changedOptions, flatOptionsError } from './channel-options-change.js';

const stored = (provider: string, options: Record<string, unknown>): ChannelDefinition => ({
  ...channelDefaults(),
  name: 'c',
  provider,
  baseUrl: 'https://example.com',
  apiKey: '',
  headers: {},
  models: ['m'],
  modelMap: {},
  modelRewrite: [],
  options,
});

describe('changedOptions', () => {
  it('keeps the stored options when the change gives none', () => {
    expect(changedOptions(stored('bedrock', { region: 'eu-west-1' }), undefined, 'bedrock')).toEqual({ region: 'eu-west-1' });
  });

  it('replaces the options as a whole, but keeps a secret option left out', () => {
    const current = stored('replicate', { webhookSecret: 'whsec_x', pollIntervalMs: 100, deadlineMs: 5000 });
    expect(changedOptions(current, { pollIntervalMs: 200 }, 'replicate')).toEqual({ webhookSecret: 'whsec_x', pollIntervalMs: 200 });
  });

  it('removes an option given as null, a secret one included', () => {
    const current = stored('replicate', { webhookSecret: 'whsec_x', pollIntervalMs: 100 });
    expect(changedOptions(current, { webhookSecret: null, pollIntervalMs: null }, 'replicate')).toEqual({});
  });

  it('keeps no secret of another provider', () => {
    expect(changedOptions(stored('replicate', { webhookSecret: 'whsec_x' }), {}, 'openai')).toEqual({});
  });
});

describe('flatOptionsError', () => {
  it('passes strings, numbers, booleans, nulls and short lists of those', () => {
    expect(flatOptionsError({ region: 'eu-west-1', n: 3, on: false, gone: null, failModels: ['a', 'b'] })).toBeUndefined();
  });

  it.each([
    [{ region: { a: 1 } }, 'region'],
    [{ list: [[1]] }, 'list'],
    [{ list: Array.from({ length: 201 }, () => 'a') }, 'list'],
    [{ long: 'x'.repeat(2049) }, 'long'],
    [{ item: ['x'.repeat(201)] }, 'item'],
  ])('refuses %#, naming the option', (options, name) => {
    expect(flatOptionsError(options)).toMatch(new RegExp(`^channel\\.options\\.${name} must be`));
  });
});
