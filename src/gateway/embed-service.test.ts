import { describe, expect, it } from 'vitest';
import type { EmbedRequest } from '../core/embed.js';
import type { Attempt, EmbedProvider } from '../providers/types.js';
import { embedInBatches } from './embed-service.js';

function recordingProvider(): EmbedProvider & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    maxBatchSize: () => 3,
    async embed(request) {
      calls.push(request.inputs);
      // Answer later batches sooner, so order must come from the gateway, not from timing.
      await new Promise((resolve) => setTimeout(resolve, 20 - calls.length * 3));
      return { model: 'm', embeddings: request.inputs.map((input) => [Number(input.slice(1))]), usage: { inputTokens: request.inputs.length * 2 } };
    },
  };
}

const attempt = {} as Attempt;

describe('embedInBatches', () => {
  it('splits inputs beyond the batch size and reassembles vectors in input order', async () => {
    const provider = recordingProvider();
    const request: EmbedRequest = { model: 'm', inputs: Array.from({ length: 8 }, (_, i) => `t${i}`) };
    const response = await embedInBatches(provider, request, attempt, 3);
    expect(provider.calls).toEqual([
      ['t0', 't1', 't2'],
      ['t3', 't4', 't5'],
      ['t6', 't7'],
    ]);
    expect(response.embeddings).toEqual([[0], [1], [2], [3], [4], [5], [6], [7]]);
    expect(response.usage.inputTokens).toBe(16);
  });

  it('sends a small request as it is', async () => {
    const provider = recordingProvider();
    await embedInBatches(provider, { model: 'm', inputs: ['t1', 't2'] }, attempt, 3);
    expect(provider.calls).toEqual([['t1', 't2']]);
  });

  it('fails the whole request when one batch fails', async () => {
    const provider: EmbedProvider = {
      maxBatchSize: () => 1,
      async embed(request) {
        if (request.inputs[0] === 'bad') throw new Error('upstream broke');
        return { model: 'm', embeddings: [[1]], usage: { inputTokens: 1 } };
      },
    };
    await expect(embedInBatches(provider, { model: 'm', inputs: ['a', 'bad', 'c'] }, attempt, 1)).rejects.toThrow('upstream broke');
  });
});
