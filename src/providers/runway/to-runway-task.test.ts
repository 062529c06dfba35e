import { describe, expect, it } from 'vitest';
import type { TaskRequest } from '../../core/task.js';
import { toRunwayTask } from './to-runway-task.js';

const jpeg = { data: new Uint8Array([0xff, 0xd8, 0xff]), mediaType: 'image/jpeg' };
const ask = (extra: Partial<TaskRequest> = {}): TaskRequest => ({ model: 'gen4_turbo', prompt: 'waves', images: [jpeg], ...extra });

describe('toRunwayTask', () => {
  it('sends an image as a data URI to image_to_video, 16:9 720p and 5 s by default', () => {
    expect(toRunwayTask(ask(), 'gen4_turbo')).toEqual({
      path: '/v1/image_to_video',
      body: { model: 'gen4_turbo', promptImage: 'data:image/jpeg;base64,/9j/', promptText: 'waves', ratio: '1280:720', duration: 5 },
    });
  });

  it.each([
    ['16:9', '1280:720'],
    ['9:16', '720:1280'],
    ['4:3', '1104:832'],
    ['3:4', '832:1104'],
    ['1:1', '960:960'],
    ['21:9', '1584:672'],
  ])('maps aspect ratio %s to Gen-4 ratio %s', (aspectRatio, ratio) => {
    expect(toRunwayTask(ask({ aspectRatio, resolution: '720p' }), 'gen4_turbo').body.ratio).toBe(ratio);
  });

  it('lets Gen-4 Turbo go without a prompt when it has an image, but not Gen-4.5', () => {
    expect(toRunwayTask(ask({ prompt: undefined }), 'gen4_turbo').body).not.toHaveProperty('promptText');
    expect(() => toRunwayTask(ask({ prompt: undefined }), 'gen4.5')).toThrow(expect.objectContaining({ param: 'prompt' }));
  });

  it('sends text alone to text_to_video where the model has it', () => {
    expect(toRunwayTask(ask({ images: [], aspectRatio: '9:16', seconds: 2, seed: 0 }), 'gen4.5')).toEqual({
      path: '/v1/text_to_video',
      body: { model: 'gen4.5', promptText: 'waves', ratio: '720:1280', duration: 2, seed: 0 },
    });
  });

  it('uses the client’s https URL for an image too large for a data URI, or a type Runway does not take as data', () => {
    const big = { data: new Uint8Array(3_950_000), mediaType: 'image/png', sourceUrl: 'https://img.example/big.png' };
    expect(toRunwayTask(ask({ images: [big] }), 'gen4_turbo').body.promptImage).toBe('https://img.example/big.png');
    const gif = { data: new Uint8Array([1]), mediaType: 'image/gif', sourceUrl: 'https://img.example/a.gif' };
    expect(toRunwayTask(ask({ images: [gif] }), 'gen4_turbo').body.promptImage).toBe('https://img.example/a.gif');
    expect(() => toRunwayTask(ask({ images: [{ ...big, sourceUrl: 'http://img.example/big.png' }] }), 'gen4_turbo')).toThrow(
      expect.objectContaining({ param: 'images' }),
    );
  });

  it('sends a model it does not list what was asked, with the common 720p and 1080p sizes', () => {
    expect(toRunwayTask(ask({ resolution: '1080p', seconds: 8 }), 'veo3.1')).toMatchObject({
      path: '/v1/image_to_video',
      body: { ratio: '1920:1080', duration: 8 },
    });
    expect(toRunwayTask(ask({ images: [] }), 'veo3.1').path).toBe('/v1/text_to_video');
    expect(() => toRunwayTask(ask({ resolution: '4k' }), 'veo3.1')).toThrow(expect.objectContaining({ param: 'resolution' }));
  });

  it.each<[string, Partial<TaskRequest>, string, string?]>([
    ['text alone on Gen-4 Turbo', { images: [] }, 'images'],
    ['a last frame', { imageRoles: ['last_frame'] }, 'images'],
    ['a reference image', { imageRoles: ['reference_image'] }, 'images'],
    ['two images', { images: [jpeg, jpeg] }, 'images'],
    ['1080p on Gen-4', { resolution: '1080p' }, 'resolution'],
    ['an aspect ratio without a Runway size', { aspectRatio: '9:21' }, 'aspectRatio'],
    ['1:1 from text on Gen-4.5', { images: [], aspectRatio: '1:1' }, 'aspectRatio', 'gen4.5'],
    ['11 s', { seconds: 11 }, 'seconds'],
    ['1 s', { seconds: 1 }, 'seconds'],
    ['half seconds', { seconds: 5.5 }, 'seconds'],
    ['a negative seed', { seed: -1 }, 'seed'],
    ['a seed too large', { seed: 4_294_967_296 }, 'seed'],
    ['a prompt over 1000 characters', { prompt: 'p'.repeat(1_001) }, 'prompt'],
  ])('refuses %s, naming the field', (_name, extra, param, model = 'gen4_turbo') => {
    expect(() => toRunwayTask(ask(extra), model)).toThrow(expect.objectContaining({ kind: 'invalid_request', param }));
  });
});
