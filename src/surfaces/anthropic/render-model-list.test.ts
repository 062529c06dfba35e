import { describe, expect, it } from 'vitest';
import { renderAnthropicModelList } from './render-model-list.js';

describe('renderAnthropicModelList', () => {
  it('renders models with RFC 3339 created_at and first/last ids', () => {
    expect(
      renderAnthropicModelList([
        { id: 'textmodel-a-sonnet-4-20250514', operation: 'chat', ownedBy: 'anthropic', created: 1_747_180_800, displayName: 'Sonnet 4' },
        { id: 'textmodel-a-haiku-4-5-20251001', operation: 'chat', ownedBy: 'anthropic', created: 1_759_276_800, displayName: 'Haiku 4.5' },
      ]),
    ).toEqual({
      data: [
        { type: 'model', id: 'textmodel-a-sonnet-4-20250514', display_name: 'Sonnet 4', created_at: '2025-05-14T00:00:00Z' },
        { type: 'model', id: 'textmodel-a-haiku-4-5-20251001', display_name: 'Haiku 4.5', created_at: '2025-10-01T00:00:00Z' },
      ],
      has_more: false,
      first_id: 'textmodel-a-sonnet-4-20250514',
      last_id: 'textmodel-a-haiku-4-5-20251001',
    });
  });

  it('renders an empty page with null ids', () => {
    expect(renderAnthropicModelList([])).toEqual({ data: [], has_more: false, first_id: null, last_id: null });
  });
});
