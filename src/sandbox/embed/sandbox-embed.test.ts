import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import type { Attempt, ChannelConfig } from '../../providers/types.js';
import { resolveSandboxSettings, type SandboxRuntimeSettings } from '../sandbox-settings.js';
import { hashVectorise } from './hash-vectorise.js';
import { createSandboxEmbed } from './sandbox-embed.js';

const pacing = { tokensPerSecond: 0, firstTokenDelayMs: 0, failureRate: 0 };

function attempt(options: Record<string, unknown> = {}): Attempt {
  const channel: ChannelConfig = { name: 'sandbox', provider: 'sandbox', baseUrl: '', apiKey: '', headers: {}, timeoutMs: 1000, options };
  return { channel, upstreamModel: 'text-embedding-004', signal: new AbortController().signal, requestId: 'r1' };
}

const settingsFor = (a: Attempt): SandboxRuntimeSettings => resolveSandboxSettings(pacing, a.channel.options);

describe('createSandboxEmbed', () => {
  const embed = createSandboxEmbed(settingsFor);

  it('embeds each input in order with 768 values by default, counting tokens', async () => {
    const response = await embed.embed({ model: 'text-embedding-004', inputs: ['hello world', 'the cat'] }, attempt());
    expect(response.model).toBe('text-embedding-004');
    expect(response.embeddings).toEqual([hashVectorise('hello world', 768), hashVectorise('the cat', 768)]);
    // o200k_base: "hello", " world" and "the", " cat" are two tokens each.
    expect(response.usage).toEqual({ inputTokens: 4 });
  });

  it('takes the dimensions of the request, else of the channel', async () => {
    const asked = await embed.embed({ model: 'm', inputs: ['x'], dimensions: 32 }, attempt({ embedDimensions: 64 }));
    expect(asked.embeddings[0]).toHaveLength(32);
    const channel = await embed.embed({ model: 'm', inputs: ['x'] }, attempt({ embedDimensions: 64 }));
    expect(channel.embeddings[0]).toHaveLength(64);
  });

  it('refuses absurd dimensions', async () => {
    const error = await embed.embed({ model: 'm', inputs: ['x'], dimensions: 100_000 }, attempt()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(400);
    expect((error as GatewayError).param).toBe('dimensions');
  });

  it('batches 2048 inputs unless the channel says otherwise', () => {
    expect(embed.maxBatchSize(attempt().channel)).toBe(2048);
    expect(embed.maxBatchSize(attempt({ embedBatchSize: 10 }).channel)).toBe(10);
  });

  it('fails as a drill asks', async () => {
    const error = await embed.embed({ model: 'text-embedding-004', inputs: ['x'] }, attempt({ failModels: ['text-embedding-004'] })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).retryable).toBe(true);
  });
});

describe('sandbox embedding dimensions', () => {
  const embed = createSandboxEmbed(settingsFor);
  const on = (model: string): Attempt => ({ ...attempt(), upstreamModel: model });

  it('finding 15: each embedding model answers its real dimension by default', async () => {
    const expected: Array<[string, number]> = [
      ['text-embedding-3-small', 1536],
      ['text-embedding-3-large', 3072],
      ['text-embedding-004', 768],
      ['gemini-embedding-001', 3072],
    ];
    for (const [model, dimension] of expected) {
      const response = await embed.embed({ model, inputs: ['hello'] }, on(model));
      expect(response.embeddings[0], model).toHaveLength(dimension);
    }
  });

  it('finding 15: honours a smaller dimensions request and refuses one above the model maximum', async () => {
    expect((await embed.embed({ model: 'text-embedding-3-large', inputs: ['x'], dimensions: 256 }, on('text-embedding-3-large'))).embeddings[0]).toHaveLength(
      256,
    );
    expect((await embed.embed({ model: 'gemini-embedding-001', inputs: ['x'], dimensions: 3072 }, on('gemini-embedding-001'))).embeddings[0]).toHaveLength(
      3072,
    );
    const error = await embed
      .embed({ model: 'text-embedding-3-small', inputs: ['x'], dimensions: 2048 }, on('text-embedding-3-small'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(400);
    expect((error as GatewayError).message).toContain('at most 1536');
  });

  it('counts the tokens of many long inputs together, bounded', async () => {
    const response = await embed.embed(
      { model: 'text-embedding-3-small', inputs: Array.from({ length: 100 }, () => 'r'.repeat(10_000)) },
      on('text-embedding-3-small'),
    );
    // "rrrr" is one o200k token.
    expect(response.usage.inputTokens).toBe(100 * 2_500);
  });
});
