import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import type { ImageInput } from '../../core/image.js';
import type { TaskRequest } from '../../core/task.js';
import { toMinimaxVideoRequest } from './to-minimax-video-request.js';

const png = (extra: Partial<ImageInput> = {}): ImageInput => ({ data: new Uint8Array([1, 2, 3]), mediaType: 'image/png', width: 1280, height: 720, ...extra });

function build(request: Partial<TaskRequest>, model = 'video-01', callbackUrl?: string) {
  const warnings: string[] = [];
  const body = toMinimaxVideoRequest({ model: 'videogen1-video-01', prompt: 'a fox', ...request }, model, (w) => warnings.push(w), callbackUrl);
  return { body, warnings };
}

function refusal(request: Partial<TaskRequest>, model = 'video-01'): GatewayError {
  try {
    build(request, model);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('toMinimaxVideoRequest', () => {
  it('sends the model and prompt, and the callback URL when there is one', () => {
    expect(build({}).body).toEqual({ model: 'video-01', prompt: 'a fox' });
    expect(build({}, 'video-01', 'https://gw.example/tasks/callback/abc').body).toEqual({
      model: 'video-01',
      prompt: 'a fox',
      callback_url: 'https://gw.example/tasks/callback/abc',
    });
  });

  it("gives video-01 (fixed 6 s) the spec's default 5 s as 6 s with a warning, and refuses 10 s", () => {
    const { body, warnings } = build({ seconds: 5 });
    expect(body.duration).toBe(6);
    expect(warnings).toEqual(['seconds: MiniMax video-01 makes 6-second videos at the shortest; 6 s were made instead of 5 s']);
    expect(build({ seconds: 6 })).toEqual({ body: { model: 'video-01', prompt: 'a fox', duration: 6 }, warnings: [] });
    expect(refusal({ seconds: 10 })).toMatchObject({ kind: 'invalid_request', param: 'seconds', message: 'MiniMax video-01 makes 6-second videos, not 10 s.' });
  });

  it('gives Hailuo 6 or 10 s, 10 s only below 1080p', () => {
    expect(build({ seconds: 10, resolution: '768p' }, 'MiniMax-Hailuo-02').body).toMatchObject({ duration: 10, resolution: '768P' });
    expect(build({ seconds: 6, resolution: '1080p' }, 'MiniMax-Hailuo-2.3').body).toMatchObject({ duration: 6, resolution: '1080P' });
    expect(refusal({ seconds: 10, resolution: '1080p' }, 'MiniMax-Hailuo-02')).toMatchObject({
      param: 'seconds',
      message: expect.stringContaining('6-second videos at 1080p'),
    });
    expect(refusal({ seconds: 8 }, 'MiniMax-Hailuo-02')).toMatchObject({
      param: 'seconds',
      message: 'MiniMax MiniMax-Hailuo-02 makes 6 or 10-second videos, not 8 s.',
    });
  });

  it('maps resolutions to MiniMax spelling, standing 720p and 768p in for each other with a warning', () => {
    const hailuo = build({ resolution: '720p' }, 'MiniMax-Hailuo-02');
    expect(hailuo.body.resolution).toBe('768P');
    expect(hailuo.warnings).toEqual(['resolution: MiniMax MiniMax-Hailuo-02 makes 768P, not 720P; 768P was used']);
    expect(build({ resolution: '720p' }).body.resolution).toBe('720P');
    expect(refusal({ resolution: '1080p' })).toMatchObject({ param: 'resolution', message: 'MiniMax video-01 makes 720p videos.' });
    expect(refusal({ resolution: '512p' }, 'MiniMax-Hailuo-02')).toMatchObject({
      param: 'resolution',
      message: expect.stringContaining('only from a first-frame image'),
    });
    expect(build({ resolution: '512p', images: [png()] }, 'MiniMax-Hailuo-02').body.resolution).toBe('512P');
    expect(refusal({ resolution: '1280x720' })).toMatchObject({ param: 'resolution' });
  });

  it('passes seconds and resolution to a model it does not know, for MiniMax to judge', () => {
    expect(build({ seconds: 8, resolution: '2k' }, 'MiniMax-Hailuo-03').body).toMatchObject({ duration: 8, resolution: '2K' });
    expect(refusal({ resolution: '2k' }, 'MiniMax-Hailuo-02')).toMatchObject({ param: 'resolution' });
    expect(build({ seconds: 8, resolution: '1440p' }, 'MiniMax-Hailuo-03').body).toMatchObject({ duration: 8, resolution: '1440P' });
  });

  it('accepts 16:9 from text, refuses other ratios, and warns when a first frame of another shape decides', () => {
    expect(build({ aspectRatio: '16:9' })).toEqual({ body: { model: 'video-01', prompt: 'a fox' }, warnings: [] });
    expect(refusal({ aspectRatio: '9:16' })).toMatchObject({ kind: 'invalid_request', param: 'aspectRatio' });
    expect(refusal({ aspectRatio: 'wide' })).toMatchObject({ param: 'aspectRatio' });
    expect(build({ aspectRatio: '16:9', images: [png()] }).warnings).toEqual([]);
    expect(build({ aspectRatio: '9:16', images: [png()] }).warnings).toEqual([
      "aspectRatio: MiniMax makes the video in the first frame's shape; 9:16 was not applied",
    ]);
  });

  it('sends one first frame: the URL the client gave, else a data URL', () => {
    expect(build({ images: [png({ sourceUrl: 'https://img.example/a.png' })] }).body.first_frame_image).toBe('https://img.example/a.png');
    expect(build({ images: [png()], imageRoles: ['first_frame'] }).body.first_frame_image).toBe('data:image/png;base64,AQID');
    expect(refusal({ images: [png(), png()] })).toMatchObject({ param: 'images' });
    expect(refusal({ images: [png()], imageRoles: ['last_frame'] })).toMatchObject({ param: 'images', message: expect.stringContaining('not as last_frame') });
    expect(refusal({ images: [png()], imageRoles: ['reference_image'] })).toMatchObject({ param: 'images' });
    expect(refusal({ images: [png({ mediaType: 'image/gif' })] })).toMatchObject({ param: 'images' });
  });

  it('knows which models need, take or refuse a first frame', () => {
    expect(refusal({}, 'I2V-01')).toMatchObject({ param: 'images', message: expect.stringContaining('from a first-frame image') });
    expect(refusal({ images: [png()] }, 'T2V-01')).toMatchObject({ param: 'images' });
    expect(build({ prompt: undefined, images: [png()] }, 'I2V-01').body).toEqual({ model: 'I2V-01', first_frame_image: 'data:image/png;base64,AQID' });
    expect(refusal({ prompt: '  ' })).toMatchObject({ param: 'prompt' });
    expect(refusal({ prompt: 'x'.repeat(2001) })).toMatchObject({ param: 'prompt' });
  });

  it('warns that a seed is dropped and relays only MiniMax booleans from options', () => {
    const { body, warnings } = build({ seed: 7, options: { prompt_optimizer: false, aigc_watermark: true, fast_pretreatment: 'yes', model: 'x' } });
    expect(body).toEqual({ model: 'video-01', prompt: 'a fox', prompt_optimizer: false, aigc_watermark: true });
    expect(warnings).toEqual(['seed: not supported by MiniMax']);
  });
});
