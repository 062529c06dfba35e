import { describe, expect, it } from 'vitest';
import type { TaskRequest } from '../../core/task.js';
import { toReplicateTaskInput } from './replicate-task-input.js';

const ask = (extra: Partial<TaskRequest> = {}): TaskRequest => ({ model: 'black-forest-labs/flux-schnell', prompt: 'a red kite', ...extra });

describe('toReplicateTaskInput', () => {
  it('sends prompt, size with its nearest aspect ratio, count and seed', () => {
    expect(toReplicateTaskInput(ask({ width: 1024, height: 768, count: 2, seed: 7 }), 'black-forest-labs/flux-schnell')).toEqual({
      prompt: 'a red kite',
      width: 1024,
      height: 768,
      aspect_ratio: '4:3',
      num_outputs: 2,
      seed: 7,
      output_format: 'png',
    });
  });

  it('asks one image by default and leaves the seed out when none was given', () => {
    expect(toReplicateTaskInput(ask(), 'stability-ai/sdxl')).toEqual({ prompt: 'a red kite', num_outputs: 1, output_format: 'png' });
  });

  it('gives Flux Pro its exact size as a custom aspect ratio, rounded to 32', () => {
    expect(toReplicateTaskInput(ask({ width: 1000, height: 750 }), 'black-forest-labs/flux-1.1-pro')).toMatchObject({
      aspect_ratio: 'custom',
      width: 992,
      height: 736,
    });
  });

  it('relays snake_case scalar options as model inputs', () => {
    const input = toReplicateTaskInput(
      ask({
        width: 1024,
        height: 1024,
        seed: 3,
        options: {
          aspect_ratio: '16:9',
          guidance: 3.5,
          go_fast: true,
          output_format: 'webp',
          prompt: 'overridden?',
          num_outputs: 9,
          seed: 11,
          CamelCase: 1,
          nested: { a: 1 },
          list: [1, 2],
          huge: 'x'.repeat(5_000),
        },
      }),
      'black-forest-labs/flux-dev',
    );
    expect(input).toEqual({
      aspect_ratio: '16:9',
      guidance: 3.5,
      go_fast: true,
      output_format: 'webp',
      prompt: 'a red kite',
      width: 1024,
      height: 1024,
      num_outputs: 1,
      seed: 3,
    });
  });

  it('never takes the canonical fields from options', () => {
    const input = toReplicateTaskInput(ask({ options: { seed: 11, width: 64, height: 64, num_outputs: 4, prompt: 'other' } }), 'black-forest-labs/flux-dev');
    expect(input).toEqual({ prompt: 'a red kite', num_outputs: 1, output_format: 'png' });
  });

  it('relays at most 32 options', () => {
    const options = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`opt_${i}`, i]));
    const input = toReplicateTaskInput(ask({ options }), 'owner/model');
    expect(Object.keys(input).filter((key) => key.startsWith('opt_'))).toHaveLength(32);
  });
});
