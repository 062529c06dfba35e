import { describe, expect, it } from 'vitest';
import type { ResponseItem } from '../../core/responses.js';
import { MAX_INPUT_ITEMS } from './parse-responses-bounds.js';
import { unresolvedReferenceIds } from './stored-item-references.js';

describe('unresolvedReferenceIds', () => {
  const history: ResponseItem[] = [{ type: 'message', id: 'msg_hist', role: 'user', content: [] }];

  it('names the ids of references (typed or a bare {id}) that neither the history nor the input holds, once each', () => {
    const input = [
      { type: 'item_reference', id: 'fc_stored' },
      { id: 'msg_stored' },
      { type: 'item_reference', id: 'fc_stored' },
      { type: 'item_reference', id: 'msg_hist' },
      { type: 'message', id: 'msg_here', role: 'user', content: 'hi' },
      { type: 'item_reference', id: 'msg_here' },
      { role: 'user', id: 'msg_easy', content: 'a message, not a reference' },
    ];
    expect(unresolvedReferenceIds(input, history)).toEqual(['fc_stored', 'msg_stored']);
  });

  it('looks nothing up for input the parser refuses or holds no references', () => {
    expect(unresolvedReferenceIds('Hello', history)).toEqual([]);
    expect(unresolvedReferenceIds({ type: 'item_reference', id: 'fc_1' }, [])).toEqual([]);
    expect(unresolvedReferenceIds([{ type: 'item_reference', id: 42 }, null, 'x'], [])).toEqual([]);
    const tooMany = Array.from({ length: MAX_INPUT_ITEMS + 1 }, (_, i) => ({ type: 'item_reference', id: `fc_${i}` }));
    expect(unresolvedReferenceIds(tooMany, [])).toEqual([]);
    expect(unresolvedReferenceIds(tooMany.slice(1), [])).toHaveLength(MAX_INPUT_ITEMS);
  });
});
