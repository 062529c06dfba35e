import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import type { Attempt, ChannelConfig } from '../types.js';
import { fakeEmbeddingValues } from '../../../test/fakes/fake-embedding-values.js';
import { fakeGeminiEmbeddingSeed } from '../../../test/fakes/fake-gemini-embeddings.js';
import { FAKE_GEMINI_KEY, startFakeGeminiUpstream, type FakeGeminiUpstream } from '../../../test/fakes/fake-gemini-upstream.js';
import { createGeminiEmbed } from './gemini-embed.js';

let upstream: FakeGeminiUpstream;
beforeAll(async () => {
  upstream = await startFakeGeminiUpstream();
});
afterAll(() => upstream.close());

function channel(overrides: Partial<ChannelConfig> = {}): ChannelConfig {
  return { name: 'fake-gemini', provider: 'gemini', baseUrl: upstream.url, apiKey: FAKE_GEMINI_KEY, headers: {}, timeoutMs: 5000, options: {}, ...overrides };
}

function attempt(upstreamModel: string, overrides: Partial<ChannelConfig> = {}): Attempt {
  return { channel: channel(overrides), upstreamModel, signal: new AbortController().signal, requestId: 'req-1' };
}

const embed = createGeminiEmbed();

describe('Gemini embed provider against the fake upstream', () => {
  it('calls :batchEmbedContents with models/<m> in every request, carrying the options', async () => {
    const response = await embed.embed(
      { model: 'public-id', inputs: ['first doc', 'second doc'], taskType: 'RETRIEVAL_DOCUMENT', title: 'Manual', dimensions: 16 },
      attempt('text-embedding-004'),
    );
    const sent = upstream.requests.at(-1)!;
    expect(sent.path).toBe('/v1beta/models/text-embedding-004:batchEmbedContents');
    expect(sent.headers['x-goog-api-key']).toBe(FAKE_GEMINI_KEY);
    expect(sent.body).toEqual({
      requests: [
        {
          model: 'models/text-embedding-004',
          content: { parts: [{ text: 'first doc' }] },
          taskType: 'RETRIEVAL_DOCUMENT',
          title: 'Manual',
          outputDimensionality: 16,
        },
        {
          model: 'models/text-embedding-004',
          content: { parts: [{ text: 'second doc' }] },
          taskType: 'RETRIEVAL_DOCUMENT',
          title: 'Manual',
          outputDimensionality: 16,
        },
      ],
    });
    expect(response.embeddings).toEqual([
      fakeEmbeddingValues(fakeGeminiEmbeddingSeed('text-embedding-004', 'first doc', 'RETRIEVAL_DOCUMENT', 'Manual'), 16),
      fakeEmbeddingValues(fakeGeminiEmbeddingSeed('text-embedding-004', 'second doc', 'RETRIEVAL_DOCUMENT', 'Manual'), 16),
    ]);
    expect(response.model).toBe('public-id');
    // Estimated with o200k_base: "first", " doc", "second", " doc".
    expect(response.usage).toEqual({ inputTokens: 4 });
  });

  it('sends one input as a batch of one and gets the full-length vector', async () => {
    const response = await embed.embed({ model: 'm', inputs: ['solo'] }, attempt('models/gemini-embedding-001'));
    expect(upstream.requests.at(-1)!.path).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(response.embeddings).toEqual([fakeEmbeddingValues(fakeGeminiEmbeddingSeed('gemini-embedding-001', 'solo'), 3072)]);
  });

  it('passes the upstream refusal of 101 requests on as a 400', async () => {
    const inputs = Array.from({ length: 101 }, (_, i) => `t${i}`);
    const error = await embed.embed({ model: 'm', inputs, dimensions: 2 }, attempt('text-embedding-004')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(400);
    expect((error as GatewayError).message).toContain('at most 100 requests can be in one batch');
  });

  it('maps an unknown model to not_found and a wrong key to a retryable upstream error', async () => {
    const missing = await embed.embed({ model: 'm', inputs: ['a'] }, attempt('no-such-embedder')).catch((e: unknown) => e);
    expect((missing as GatewayError).kind).toBe('not_found');
    const refused = await embed.embed({ model: 'm', inputs: ['a'] }, attempt('text-embedding-004', { apiKey: 'wrong' })).catch((e: unknown) => e);
    expect((refused as GatewayError).kind).toBe('upstream');
    expect((refused as GatewayError).retryable).toBe(true);
  });

  it('takes at most 100 inputs per call', () => {
    expect(embed.maxBatchSize(channel())).toBe(100);
    expect(embed.maxBatchSize(channel({ options: { embedBatchSize: 40 } }))).toBe(40);
    expect(embed.maxBatchSize(channel({ options: { embedBatchSize: 500 } }))).toBe(100);
  });
});
