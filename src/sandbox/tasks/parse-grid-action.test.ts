import { describe, expect, it } from 'vitest';
import { parseGridAction } from './parse-grid-action.js';

const HASH = '3f2a9c1e-0b7d-4e21-9a55-2c1d8e7f6a10';

describe('parseGridAction', () => {
  it('reads upscale, variation and reroll buttons', () => {
    expect(parseGridAction(`MJ::JOB::upsample::4::${HASH}`)).toEqual({ kind: 'upsample', index: 4 });
    expect(parseGridAction(`MJ::JOB::variation::1::${HASH}`)).toEqual({ kind: 'variation', index: 1 });
    expect(parseGridAction(`MJ::JOB::reroll::0::${HASH}::SOLO`)).toEqual({ kind: 'reroll' });
    expect(parseGridAction(`MJ::JOB::reroll::0::${HASH}`)).toEqual({ kind: 'reroll' });
  });

  it('refuses other shapes as the client’s error', () => {
    for (const customId of [
      undefined,
      '',
      `MJ::JOB::upsample::0::${HASH}`,
      `MJ::JOB::variation::5::${HASH}`,
      `MJ::JOB::reroll::2::${HASH}`,
      `MJ::JOB::upsample_v6_2x_subtle::1::${HASH}`,
      `MJ::CustomZoom::${HASH}`,
      `MJ::JOB::upsample::1::${'a'.repeat(300)}`,
      `MJ::JOB::upsample::1::${HASH}::x::y`,
    ]) {
      expect(() => parseGridAction(customId), String(customId)).toThrow(expect.objectContaining({ kind: 'invalid_request', param: 'customId' }));
    }
  });
});
