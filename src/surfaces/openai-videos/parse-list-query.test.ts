import { describe, expect, it } from 'vitest';
import { parseVideoListQuery } from './parse-list-query.js';

describe('parseVideoListQuery', () => {
  it('defaults to 20 newest first', () => {
    expect(parseVideoListQuery(undefined)).toEqual({ limit: 20, order: 'desc' });
    expect(parseVideoListQuery({ after: '' })).toEqual({ limit: 20, order: 'desc' });
  });

  it('reads limit, after and order', () => {
    expect(parseVideoListQuery({ limit: '100', after: 'video_abc', order: 'asc' })).toEqual({ limit: 100, after: 'video_abc', order: 'asc' });
    expect(parseVideoListQuery({ limit: '1' }).limit).toBe(1);
  });

  it('refuses out-of-range limits, unknown orders, odd ids and repeated parameters, naming them', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ limit: '0' }, 'limit'],
      [{ limit: '101' }, 'limit'],
      [{ limit: '-1' }, 'limit'],
      [{ limit: '2.5' }, 'limit'],
      [{ order: 'DESC' }, 'order'],
      [{ after: '../x' }, 'after'],
      [{ after: 'v'.repeat(65) }, 'after'],
      [{ order: ['asc', 'desc'] }, 'order'],
    ];
    for (const [query, param] of cases) expect(() => parseVideoListQuery(query), JSON.stringify(query)).toThrow(expect.objectContaining({ param }));
  });
});
