import { describe, expect, it } from 'vitest';
import { readSandboxTaskRecord, type SandboxTaskRecord, toUpstreamData } from './sandbox-task-record.js';

const RECORD: SandboxTaskRecord = {
  startedAt: 1_700_000_000_000,
  totalMs: 4_000,
  outputs: [{ mediaId: 'a.png', kind: 'image', mime: 'image/png', bytes: 10 }],
  seed: '123',
  buttons: [{ customId: 'MJ::JOB::reroll::0::h::SOLO', emoji: '🔄', label: '', type: 2, style: 2 }],
  grid: true,
  failure: { message: 'drill', atShare: 0.6 },
};

describe('sandbox task record', () => {
  it('comes back as it went in through JSON', () => {
    expect(readSandboxTaskRecord(JSON.parse(JSON.stringify(toUpstreamData(RECORD))))).toEqual(RECORD);
  });

  it('is refused when any part is not one the sandbox writes', () => {
    const broken: Array<Record<string, unknown> | undefined> = [
      undefined,
      {},
      { ...RECORD, startedAt: 'now' },
      { ...RECORD, totalMs: -1 },
      { ...RECORD, outputs: [{ mediaId: 1 }] },
      { ...RECORD, outputs: Array(5).fill(RECORD.outputs[0]) },
      { ...RECORD, buttons: [{ label: 'U1' }] },
      { ...RECORD, failure: { message: 3 } },
    ];
    for (const data of broken) expect(readSandboxTaskRecord(data)).toBeUndefined();
  });
});
