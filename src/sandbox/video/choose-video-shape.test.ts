import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { chooseVideoShape } from './choose-video-shape.js';

function refusal(request: Parameters<typeof chooseVideoShape>[0]): GatewayError {
  try {
    chooseVideoShape(request);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(request)}`);
}

describe('chooseVideoShape', () => {
  it('reads the resolution as the short side and the aspect ratio as the long one', () => {
    expect(chooseVideoShape({ resolution: '720p', aspectRatio: '16:9' })).toMatchObject({ width: 1280, height: 720 });
    expect(chooseVideoShape({ resolution: '720p', aspectRatio: '9:16' })).toMatchObject({ width: 720, height: 1280 });
    expect(chooseVideoShape({ resolution: '1080p', aspectRatio: '16:9' })).toMatchObject({ width: 1920, height: 1080 });
    expect(chooseVideoShape({ resolution: '480p', aspectRatio: '16:9' })).toMatchObject({ width: 854, height: 480 });
    expect(chooseVideoShape({ resolution: '768P', aspectRatio: '1:1' })).toMatchObject({ width: 768, height: 768 });
    expect(chooseVideoShape({ resolution: '720p', aspectRatio: '4:3' })).toMatchObject({ width: 960, height: 720 });
  });

  it('makes 5 s of 720p 16:9 at 8 frames a second by default, and rounds lengths to whole frames', () => {
    expect(chooseVideoShape({})).toEqual({ width: 1280, height: 720, fps: 8, frames: 40, seconds: 5 });
    expect(chooseVideoShape({ seconds: 2.3 })).toMatchObject({ frames: 18, seconds: 2.25 });
    expect(chooseVideoShape({ seconds: 20 })).toMatchObject({ frames: 160, seconds: 20 });
  });

  it('refuses lengths outside 1–20 s naming seconds', () => {
    for (const seconds of [0, 0.5, 20.5, 60, Number.NaN]) {
      const error = refusal({ seconds });
      expect(error.kind).toBe('invalid_request');
      expect(error.param).toBe('seconds');
    }
  });

  it('refuses unknown or out-of-range resolutions naming resolution', () => {
    for (const resolution of ['hd', '4k', '2160p', '100p', '720']) expect(refusal({ resolution }).param).toBe('resolution');
  });

  it('refuses malformed or too elongated aspect ratios naming aspectRatio', () => {
    for (const aspectRatio of ['wide', '16x9', '0:1', '16:0']) expect(refusal({ aspectRatio }).param).toBe('aspectRatio');
    expect(refusal({ aspectRatio: '4:1', resolution: '1080p' }).param).toBe('aspectRatio');
    expect(chooseVideoShape({ aspectRatio: '21:9', resolution: '1080p' })).toMatchObject({ width: 2520, height: 1080 });
  });
});
