import { describe, expect, it } from 'vitest';
import type { TaskRequest } from '../../core/task.js';
import { arkVideoFlags } from './ark-video-params.js';

const LITE_T2V = 'doubao-seedance-1-0-lite-t2v-250428';
const ask = (extra: Partial<TaskRequest>): TaskRequest => ({ model: 'videogen2-1-0-lite', prompt: 'a cat', ...extra });

describe('arkVideoFlags', () => {
  it('turns the canonical settings into Ark text commands', () => {
    expect(arkVideoFlags(ask({ resolution: '720P', aspectRatio: '9:16', seconds: 10, seed: 42 }), LITE_T2V, false)).toEqual([
      ['resolution', '720p'],
      ['ratio', '9:16'],
      ['duration', '10'],
      ['seed', '42'],
    ]);
  });

  it('sends nothing for settings left out (Ark keeps its model defaults)', () => {
    expect(arkVideoFlags(ask({}), LITE_T2V, false)).toEqual([]);
  });

  it('relays the camera-fixed and watermark options', () => {
    expect(arkVideoFlags(ask({ options: { cameraFixed: true, watermark: false, other: 1 } }), LITE_T2V, false)).toEqual([
      ['camerafixed', 'true'],
      ['watermark', 'false'],
    ]);
  });

  it.each([
    [{ resolution: '4k' }, 'resolution'],
    [{ aspectRatio: '2:1' }, 'aspectRatio'],
    [{ seconds: 13 }, 'seconds'],
    [{ seconds: 1 }, 'seconds'],
    [{ seconds: 5.5 }, 'seconds'],
    [{ seed: -2 }, 'seed'],
    [{ seed: 2 ** 32 }, 'seed'],
  ] as Array<[Partial<TaskRequest>, string]>)('refuses %o naming %s', (extra, param) => {
    expect(() => arkVideoFlags(ask(extra), LITE_T2V, false)).toThrow(expect.objectContaining({ kind: 'invalid_request', param }));
  });

  it('takes durations by model line (Seedance 2.0 goes to 15 s)', () => {
    expect(arkVideoFlags(ask({ seconds: 15 }), 'doubao-seedance-2-0-260128', false)).toEqual([['duration', '15']]);
    expect(() => arkVideoFlags(ask({ seconds: 15 }), LITE_T2V, false)).toThrow(expect.objectContaining({ param: 'seconds' }));
  });

  it('refuses 1080p from reference images only', () => {
    expect(() => arkVideoFlags(ask({ resolution: '1080p' }), 'doubao-seedance-1-0-lite-i2v-250428', true)).toThrow(
      expect.objectContaining({ param: 'resolution' }),
    );
    expect(arkVideoFlags(ask({ resolution: '1080p' }), 'doubao-seedance-1-0-lite-i2v-250428', false)).toEqual([['resolution', '1080p']]);
  });
});
