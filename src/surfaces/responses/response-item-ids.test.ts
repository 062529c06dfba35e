import { describe, expect, it } from 'vitest';
import { newResponseItemId } from './response-item-ids.js';

describe('newResponseItemId', () => {
  it('gives the type prefix and 48 hexadecimal characters, as OpenAI ids look', () => {
    expect(newResponseItemId('msg')).toMatch(/^msg_[0-9a-f]{48}$/);
    expect(newResponseItemId('fc')).toMatch(/^fc_[0-9a-f]{48}$/);
    expect(newResponseItemId('rs')).toMatch(/^rs_[0-9a-f]{48}$/);
  });

  it('never repeats an id', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newResponseItemId('msg')));
    expect(ids.size).toBe(1000);
  });
});
