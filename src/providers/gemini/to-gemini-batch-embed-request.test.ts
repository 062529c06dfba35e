import { describe, expect, it } from 'vitest';
import { toGeminiBatchEmbedRequest } from './to-gemini-batch-embed-request.js';

describe('toGeminiBatchEmbedRequest', () => {
  it('makes one request per input with only the options given', () => {
    expect(toGeminiBatchEmbedRequest({ model: 'public', inputs: ['a', 'b'] }, 'text-embedding-004')).toEqual({
      requests: [
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'a' }] } },
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'b' }] } },
      ],
    });
  });

  it('keeps a models/ prefix and drops a title Gemini would refuse', () => {
    expect(toGeminiBatchEmbedRequest({ model: 'p', inputs: ['q'], taskType: 'RETRIEVAL_QUERY', title: 'T', dimensions: 3 }, 'models/m')).toEqual({
      requests: [{ model: 'models/m', content: { parts: [{ text: 'q' }] }, taskType: 'RETRIEVAL_QUERY', outputDimensionality: 3 }],
    });
  });
});
