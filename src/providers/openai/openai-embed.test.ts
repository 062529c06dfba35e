import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import type { Attempt, ChannelConfig } from '../types.js';
import { fakeEmbeddingValues } from '../../../test/fakes/fake-embedding-values.js';
import { fakeOpenAIEmbeddingSeed } from '../../../test/fakes/fake-openai-embeddings.js';
import { fakeOpenAIChannel, startFakeOpenAIUpstream, type FakeOpenAIUpstream } from '../../../test/fakes/fake-openai-upstream.js';
import { createOpenAIEmbed } from './openai-embed.js';

let upstream: FakeOpenAIUpstream;
beforeAll(async () => {
  upstream = await startFakeOpenAIUpstream();
});
afterAll(() => upstream.close());

function attempt(upstreamModel: string, overrides: Partial<ChannelConfig> = {}): Attempt {
  return { channel: fakeOpenAIChannel(upstream, overrides), upstreamModel, signal: new AbortController().signal, requestId: 'req-1' };
}

const embed = createOpenAIEmbed({});

describe('OpenAI embed provider against the fake upstream', () => {
  it('posts floats-please to /embeddings and returns the vectors in order', async () => {
    const response = await embed.embed(
      { model: 'text-embedding-3-small', inputs: ['hello world', 'second text here'], dimensions: 8, user: 'u-9', taskType: 'CLUSTERING' },
      attempt('text-embedding-3-small'),
    );
    const sent = upstream.requests.at(-1)!;
    expect(sent.path).toBe('/v1/embeddings');
    expect(sent.headers.authorization).toBe('Bearer sk-fake-openai-upstream');
    expect(sent.body).toEqual({
      model: 'text-embedding-3-small',
      input: ['hello world', 'second text here'],
      encoding_format: 'float',
      dimensions: 8,
      user: 'u-9',
    });
    expect(response).toEqual({
      model: 'text-embedding-3-small',
      embeddings: [
        fakeEmbeddingValues(fakeOpenAIEmbeddingSeed('text-embedding-3-small', 'hello world'), 8),
        fakeEmbeddingValues(fakeOpenAIEmbeddingSeed('text-embedding-3-small', 'second text here'), 8),
      ],
      // The fake counts words: 2 + 3.
      usage: { inputTokens: 5 },
    });
  });

  it('gets full-length vectors without dimensions', async () => {
    const response = await embed.embed({ model: 'x', inputs: ['a'] }, attempt('text-embedding-3-large'));
    expect(response.embeddings[0]).toHaveLength(3072);
  });

  it('passes the upstream refusal of more than 2048 inputs on as a 400', async () => {
    const inputs = Array.from({ length: 2049 }, (_, i) => `text ${i}`);
    const error = await embed.embed({ model: 'text-embedding-3-small', inputs, dimensions: 2 }, attempt('text-embedding-3-small')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(400);
    expect((error as GatewayError).retryable).toBe(false);
    expect((error as GatewayError).message).toContain("'$.input' is invalid");
  });

  it('maps an unknown model to not_found and a refused key to a retryable upstream error', async () => {
    const missing = await embed.embed({ model: 'm', inputs: ['a'] }, attempt('no-such-model')).catch((e: unknown) => e);
    expect((missing as GatewayError).kind).toBe('not_found');
    const refused = await embed.embed({ model: 'm', inputs: ['a'] }, attempt('text-embedding-3-small', { apiKey: 'sk-wrong' })).catch((e: unknown) => e);
    expect((refused as GatewayError).kind).toBe('upstream');
    expect((refused as GatewayError).retryable).toBe(true);
  });

  it('takes 2048 inputs per call unless the channel sets embedBatchSize', () => {
    expect(embed.maxBatchSize(fakeOpenAIChannel(upstream))).toBe(2048);
    expect(embed.maxBatchSize(fakeOpenAIChannel(upstream, { options: { embedBatchSize: 32 } }))).toBe(32);
    expect(embed.maxBatchSize(fakeOpenAIChannel(upstream, { options: { embedBatchSize: 'lots' } }))).toBe(2048);
  });
});
