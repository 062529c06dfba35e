import { describe, expect, it } from 'vitest';
import { parseInputItemsQuery, parseRetrieveQuery } from './parse-query.js';

describe('parseInputItemsQuery', () => {
  it("fills OpenAI's defaults: 20 items, newest first, nothing included", () => {
    expect(parseInputItemsQuery({})).toEqual({ limit: 20, order: 'desc', include: [] });
    expect(parseInputItemsQuery(undefined)).toEqual({ limit: 20, order: 'desc', include: [] });
  });

  it('reads limit, order, after and include as the SDK writes them', () => {
    expect(parseInputItemsQuery({ limit: '100', order: 'asc', after: 'msg_1', 'include[]': 'reasoning.encrypted_content' })).toEqual({
      limit: 100,
      order: 'asc',
      after: 'msg_1',
      include: ['reasoning.encrypted_content'],
    });
    expect(parseInputItemsQuery({ include: ['message.input_image.image_url', 'message.input_image.image_url'] }).include).toEqual([
      'message.input_image.image_url',
    ]);
  });

  it('refuses each bad value by name', () => {
    const paramOf = (query: Record<string, unknown>) => {
      try {
        parseInputItemsQuery(query);
      } catch (error) {
        return (error as { param?: string }).param;
      }
      return 'accepted';
    };
    for (const limit of ['0', '101', '-1', '1.5', 'ten', '', '00000001']) expect(paramOf({ limit }), limit).toBe('limit');
    expect(paramOf({ limit: ['1', '2'] })).toBe('limit');
    expect(paramOf({ order: 'newest' })).toBe('order');
    expect(paramOf({ after: '' })).toBe('after');
    expect(paramOf({ after: 'x'.repeat(257) })).toBe('after');
    expect(paramOf({ after: 'msg_\u0007' })).toBe('after');
    expect(paramOf({ 'include[]': 'everything' })).toBe('include[0]');
  });
});

describe('parseRetrieveQuery', () => {
  it('reads include and stream', () => {
    expect(parseRetrieveQuery({})).toEqual({ include: [], stream: false });
    expect(parseRetrieveQuery({ 'include[]': ['reasoning.encrypted_content'], stream: 'true' })).toEqual({
      include: ['reasoning.encrypted_content'],
      stream: true,
    });
    expect(() => parseRetrieveQuery({ stream: 'yes' })).toThrow(/stream/);
  });
});
