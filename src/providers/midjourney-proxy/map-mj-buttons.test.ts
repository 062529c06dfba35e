import { describe, expect, it } from 'vitest';
import { MAX_MJ_BUTTONS, mapMjButtons } from './map-mj-buttons.js';

describe('mapMjButtons', () => {
  it('keeps customId, label, emoji, type and style', () => {
    expect(
      mapMjButtons([
        { customId: 'MJ::JOB::upsample::1::abc', emoji: '', label: 'U1', type: 2, style: 2 },
        { customId: 'MJ::JOB::reroll::0::abc::SOLO', emoji: '🔄', label: '', type: 2, style: 1 },
      ]),
    ).toEqual([
      { customId: 'MJ::JOB::upsample::1::abc', label: 'U1', type: 2, style: 2 },
      { customId: 'MJ::JOB::reroll::0::abc::SOLO', label: '', emoji: '🔄', type: 2, style: 1 },
    ]);
  });

  it('drops malformed entries, fills missing numbers and bounds the count', () => {
    expect(mapMjButtons([null, 'U1', { label: 'no id' }, { customId: '' }, { customId: 'x'.repeat(300) }, { customId: 'ok', type: -1, style: 1.5 }])).toEqual([
      { customId: 'ok', label: '', type: 2, style: 2 },
    ]);
    const many = Array.from({ length: 100 }, (_, i) => ({ customId: `MJ::${i}`, label: `B${i}`, type: 2, style: 2 }));
    expect(mapMjButtons(many)).toHaveLength(MAX_MJ_BUTTONS);
    expect(mapMjButtons('buttons')).toBeUndefined();
  });
});
