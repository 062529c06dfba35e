import { describe, expect, it } from 'vitest';
import type { ModelInfo } from '../../core/model-info.js';
import { renderGeminiModel, renderGeminiModelList } from './render-model-list.js';

const chat: ModelInfo = {
  id: 'textmodel-c-2.5-flash',
  operation: 'chat',
  ownedBy: 'google',
  created: 1_700_000_000,
  displayName: 'Text model C 2.5 Flash',
  inputTokenLimit: 1_048_576,
  outputTokenLimit: 65_536,
};
const embed: ModelInfo = { id: 'text-embedding-004', operation: 'embed', ownedBy: 'google', created: 1_700_000_000, displayName: 'Text Embedding 004' };
const image: ModelInfo = { id: 'imagegen1-pro', operation: 'image.generate', ownedBy: 'gengate', created: 1_700_000_000, displayName: 'Image gen' };

describe('renderGeminiModelList', () => {
  it('lists chat and embedding models with their generation methods', () => {
    expect(renderGeminiModelList([chat, embed, image])).toEqual({
      models: [
        {
          name: 'models/textmodel-c-2.5-flash',
          version: '001',
          displayName: 'Text model C 2.5 Flash',
          inputTokenLimit: 1_048_576,
          outputTokenLimit: 65_536,
          supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
        },
        {
          name: 'models/text-embedding-004',
          version: '001',
          displayName: 'Text Embedding 004',
          supportedGenerationMethods: ['embedContent', 'batchEmbedContents'],
        },
      ],
    });
  });

  it('renders one model', () => {
    expect(renderGeminiModel(embed).name).toBe('models/text-embedding-004');
  });
});
