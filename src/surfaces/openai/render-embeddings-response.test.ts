import { describe, expect, it } from 'vitest';
import { renderOpenAIEmbeddingsResponse } from './render-embeddings-response.js';

const response = {
  model: 'text-embedding-3-small',
  embeddings: [
    [0.5, -0.25],
    [1, 0.1],
  ],
  usage: { inputTokens: 9 },
};

describe('renderOpenAIEmbeddingsResponse', () => {
  it('renders float vectors in OpenAI list shape', () => {
    expect(renderOpenAIEmbeddingsResponse(response, 'float')).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: [0.5, -0.25] },
        { object: 'embedding', index: 1, embedding: [1, 0.1] },
      ],
      model: 'text-embedding-3-small',
      usage: { prompt_tokens: 9, total_tokens: 9 },
    });
  });

  it('renders base64 little-endian float32 vectors', () => {
    const rendered = renderOpenAIEmbeddingsResponse(response, 'base64');
    const decoded = rendered.data.map((item) => {
      const bytes = Buffer.from(item.embedding as string, 'base64');
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
      return Array.from({ length: bytes.length / 4 }, (_, i) => view.getFloat32(i * 4, true));
    });
    // 0.1 is not a float32: it comes back as the nearest float32.
    expect(decoded).toEqual([
      [0.5, -0.25],
      [1, Math.fround(0.1)],
    ]);
    expect(rendered.data[0].embedding).toBe('AAAAPwAAgL4=');
  });
});
