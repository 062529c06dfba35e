import { describe, expect, it } from 'vitest';
import type { ImageInput } from '../../core/image.js';
import type { TaskRequest } from '../../core/task.js';
import { toArkTaskBody } from './to-ark-task-body.js';

const image: ImageInput = { data: Uint8Array.from([9]), mediaType: 'image/webp', sourceUrl: 'https://img.example/a.webp' };
const ask = (extra: Partial<TaskRequest>): TaskRequest => ({ model: 'videogen2-1-0-lite', ...extra });

describe('toArkTaskBody', () => {
  it('makes a text-to-video body with its settings in the text', () => {
    expect(toArkTaskBody(ask({ prompt: 'a fox', resolution: '720p', aspectRatio: '16:9', seconds: 5, seed: 3 }), 'doubao-seedance-1-0-lite')).toEqual({
      model: 'doubao-seedance-1-0-lite-t2v-250428',
      content: [{ type: 'text', text: 'a fox --resolution 720p --ratio 16:9 --duration 5 --seed 3' }],
    });
  });

  it('makes an image-to-video body, with the callback URL when there is one', () => {
    expect(toArkTaskBody(ask({ images: [image], aspectRatio: 'adaptive' }), 'doubao-seedance-1-0-lite', 'https://gw.example/tasks/callback/t')).toEqual({
      model: 'doubao-seedance-1-0-lite-i2v-250428',
      content: [
        { type: 'text', text: '--ratio adaptive' },
        { type: 'image_url', image_url: { url: 'https://img.example/a.webp' }, role: 'first_frame' },
      ],
      callback_url: 'https://gw.example/tasks/callback/t',
    });
  });

  it('sends no text item for an image with neither prompt nor settings', () => {
    expect(toArkTaskBody(ask({ images: [image] }), 'doubao-seedance-1-0-pro-250528').content).toEqual([
      { type: 'image_url', image_url: { url: 'https://img.example/a.webp' }, role: 'first_frame' },
    ]);
  });

  it('refuses a request with neither prompt nor image naming prompt', () => {
    expect(() => toArkTaskBody(ask({ prompt: '  ' }), 'doubao-seedance-1-0-pro-250528')).toThrow(
      expect.objectContaining({ kind: 'invalid_request', param: 'prompt' }),
    );
  });
});
