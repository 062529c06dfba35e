import { describe, expect, it } from 'vitest';
import { groupEmbedItems } from './group-embed-items.js';

describe('groupEmbedItems', () => {
  it('makes one request when every item shares its options', () => {
    expect(
      groupEmbedItems(
        [
          { text: 'a', taskType: 'CLUSTERING' },
          { text: 'b', taskType: 'CLUSTERING' },
        ],
        'm',
      ),
    ).toEqual([{ request: { model: 'm', inputs: ['a', 'b'], taskType: 'CLUSTERING' }, positions: [0, 1] }]);
  });

  it('groups by task type, title and dimensions, remembering positions', () => {
    const groups = groupEmbedItems(
      [
        { text: 'q1', taskType: 'RETRIEVAL_QUERY' },
        { text: 'd1', taskType: 'RETRIEVAL_DOCUMENT', title: 'A' },
        { text: 'q2', taskType: 'RETRIEVAL_QUERY' },
        { text: 'd2', taskType: 'RETRIEVAL_DOCUMENT', title: 'B' },
        { text: 'p', dimensions: 8 },
      ],
      'm',
    );
    expect(groups).toEqual([
      { request: { model: 'm', inputs: ['q1', 'q2'], taskType: 'RETRIEVAL_QUERY' }, positions: [0, 2] },
      { request: { model: 'm', inputs: ['d1'], taskType: 'RETRIEVAL_DOCUMENT', title: 'A' }, positions: [1] },
      { request: { model: 'm', inputs: ['d2'], taskType: 'RETRIEVAL_DOCUMENT', title: 'B' }, positions: [3] },
      { request: { model: 'm', inputs: ['p'], dimensions: 8 }, positions: [4] },
    ]);
  });
});
