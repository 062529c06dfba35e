import { describe, expect, it } from 'vitest';
import { renderOpenAIModel, renderOpenAIModelList } from './render-model-list.js';

const model = { id: 'textmodel-b-4o', operation: 'chat' as const, ownedBy: 'openai', created: 1_715_367_049, displayName: 'Text model B 4o' };

describe('OpenAI model list', () => {
  it('renders one model', () => {
    expect(renderOpenAIModel(model)).toEqual({ id: 'textmodel-b-4o', object: 'model', created: 1_715_367_049, owned_by: 'openai' });
  });

  it('renders the list', () => {
    expect(renderOpenAIModelList([model, { ...model, id: 'textmodel-a-sonnet-4-20250514', ownedBy: 'anthropic', created: 1_747_000_000 }])).toEqual({
      object: 'list',
      data: [
        { id: 'textmodel-b-4o', object: 'model', created: 1_715_367_049, owned_by: 'openai' },
        { id: 'textmodel-a-sonnet-4-20250514', object: 'model', created: 1_747_000_000, owned_by: 'anthropic' },
      ],
    });
  });
});
