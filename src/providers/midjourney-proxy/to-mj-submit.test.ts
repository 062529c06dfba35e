import { describe, expect, it } from 'vitest';
import type { ImageInput } from '../../core/image.js';
import { toMjSubmit } from './to-mj-submit.js';

const png = (byte: number): ImageInput => ({ data: new Uint8Array([0x89, 0x50, byte]), mediaType: 'image/png' });

describe('toMjSubmit', () => {
  it('imagine: the prompt, and reference images as data URLs', () => {
    expect(toMjSubmit('image.imagine', { model: 'imgtask-imagine', prompt: ' a cat ' })).toEqual({ path: '/submit/imagine', body: { prompt: 'a cat' } });
    expect(toMjSubmit('image.imagine', { model: 'imgtask-imagine', prompt: 'a cat', images: [png(1)] }).body).toEqual({
      prompt: 'a cat',
      base64Array: ['data:image/png;base64,iVAB'],
    });
  });

  it('never relays notifyHook or state, whatever the request carries', () => {
    const { body } = toMjSubmit('image.imagine', { model: 'imgtask-imagine', prompt: 'x', options: { notifyHook: 'https://client.example/hook', state: 's' } });
    expect(Object.keys(body)).toEqual(['prompt']);
  });

  it('blend: 2 to 5 data URLs and the dimensions (SQUARE by default)', () => {
    expect(toMjSubmit('image.blend', { model: 'imgtask-blend', images: [png(1), png(2)], dimensions: 'PORTRAIT' })).toEqual({
      path: '/submit/blend',
      body: { base64Array: ['data:image/png;base64,iVAB', 'data:image/png;base64,iVAC'], dimensions: 'PORTRAIT' },
    });
    expect(toMjSubmit('image.blend', { model: 'imgtask-blend', images: [png(1), png(2)] }).body.dimensions).toBe('SQUARE');
    expect(() => toMjSubmit('image.blend', { model: 'imgtask-blend', images: [png(1)] })).toThrow(/2 to 5 images/);
    expect(() => toMjSubmit('image.blend', { model: 'imgtask-blend', images: Array.from({ length: 6 }, () => png(1)) })).toThrow(/2 to 5 images/);
  });

  it('describe: one data URL in base64', () => {
    expect(toMjSubmit('image.describe', { model: 'imgtask-describe', images: [png(3)] })).toEqual({
      path: '/submit/describe',
      body: { base64: 'data:image/png;base64,iVAD' },
    });
    expect(() => toMjSubmit('image.describe', { model: 'imgtask-describe' })).toThrow(/exactly one image/);
  });

  it('action: the parent upstream id and the customId', () => {
    expect(toMjSubmit('image.action', { model: 'imgtask-upscale', action: { customId: 'MJ::JOB::upsample::1::h' } }, '1712')).toEqual({
      path: '/submit/action',
      body: { taskId: '1712', customId: 'MJ::JOB::upsample::1::h' },
    });
    expect(() => toMjSubmit('image.action', { model: 'imgtask-upscale', action: { customId: 'MJ::JOB::upsample::1::h' } })).toThrow(/task it acts on/);
    expect(() => toMjSubmit('image.action', { model: 'imgtask-upscale' }, '1712')).toThrow(/customId/);
  });

  it('refuses an imagine without a prompt and operations the proxy lacks', () => {
    expect(() => toMjSubmit('image.imagine', { model: 'imgtask-imagine', prompt: '  ' })).toThrow(/needs a prompt/);
    expect(() => toMjSubmit('video.generate', { model: 'x' })).toThrow(/does not offer/);
  });
});
