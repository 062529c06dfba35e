import { describe, expect, it } from 'vitest';
import type { TaskRequest } from '../../core/task.js';
import { toLumaGeneration } from './to-luma-generation.js';

const image = (sourceUrl?: string) => ({ data: new Uint8Array([1]), mediaType: 'image/png', sourceUrl });
const ask = (extra: Partial<TaskRequest> = {}): TaskRequest => ({ model: 'videogen3-ray-2', prompt: ' a fox ', ...extra });

describe('toLumaGeneration', () => {
  it('defaults to 5 s, omits what was not asked, and trims the prompt', () => {
    expect(toLumaGeneration(ask(), 'ray-2')).toEqual({ prompt: 'a fox', model: 'ray-2', duration: '5s' });
  });

  it('maps seconds, resolution (any case), aspect ratio, loop and the callback URL', () => {
    expect(
      toLumaGeneration(ask({ seconds: 9, resolution: '4K', aspectRatio: '21:9', options: { loop: true } }), 'ray-flash-2', 'https://gw.example/cb/x'),
    ).toEqual({
      prompt: 'a fox',
      model: 'ray-flash-2',
      duration: '9s',
      resolution: '4k',
      aspect_ratio: '21:9',
      loop: true,
      callback_url: 'https://gw.example/cb/x',
    });
  });

  it('puts first and last frames in frame0 and frame1 by their URLs, whatever their order', () => {
    const body = toLumaGeneration(
      ask({ images: [image('https://a.example/end.png'), image('http://a.example/start.png')], imageRoles: ['last_frame', 'first_frame'] }),
      'ray-2',
    );
    expect(body.keyframes).toEqual({
      frame0: { type: 'image', url: 'http://a.example/start.png' },
      frame1: { type: 'image', url: 'https://a.example/end.png' },
    });
    expect(toLumaGeneration(ask({ images: [image('https://a.example/one.png')] }), 'ray-2').keyframes).toEqual({
      frame0: { type: 'image', url: 'https://a.example/one.png' },
    });
  });

  it.each<[string, Partial<TaskRequest>, string]>([
    ['a length Luma does not make', { seconds: 6 }, 'seconds'],
    ['a resolution Luma does not make', { resolution: '360p' }, 'resolution'],
    ['an aspect ratio Luma does not make', { aspectRatio: '5:4' }, 'aspectRatio'],
    ['a seed', { seed: 1 }, 'seed'],
    ['no prompt', { prompt: undefined }, 'prompt'],
    ['a prompt too long', { prompt: 'x'.repeat(5_001) }, 'prompt'],
    ['an image given as bytes only', { images: [image()] }, 'images'],
    ['an image given by a data URL', { images: [image('data:image/png;base64,AA==')] }, 'images'],
    ['a reference image', { images: [image('https://a.example/r.png')], imageRoles: ['reference_image'] }, 'images'],
    ['two first frames', { images: [image('https://a.example/1.png'), image('https://a.example/2.png')] }, 'images'],
    [
      'three images',
      { images: [image('https://a/1'), image('https://a/2'), image('https://a/3')], imageRoles: ['first_frame', 'last_frame', 'last_frame'] },
      'images',
    ],
  ])('refuses %s, naming the field', (_name, extra, param) => {
    expect(() => toLumaGeneration(ask(extra), 'ray-2')).toThrow(expect.objectContaining({ kind: 'invalid_request', param }));
  });
});
