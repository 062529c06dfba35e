import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { parseVideoSize } from './parse-video-size.js';

describe('parseVideoSize', () => {
  it('maps OpenAI’s sizes to ratio and resolution, keeping width and height', () => {
    expect(parseVideoSize('1280x720', 'size')).toEqual({ width: 1280, height: 720, aspectRatio: '16:9', resolution: '720p' });
    expect(parseVideoSize('720x1280', 'size')).toEqual({ width: 720, height: 1280, aspectRatio: '9:16', resolution: '720p' });
    expect(parseVideoSize('1792x1024', 'size')).toEqual({ width: 1792, height: 1024, aspectRatio: '16:9', resolution: '1080p' });
    expect(parseVideoSize('1024x1792', 'size')).toMatchObject({ aspectRatio: '9:16', resolution: '1080p' });
  });

  it('maps other standard shapes', () => {
    expect(parseVideoSize('1920x1080', 'size')).toMatchObject({ aspectRatio: '16:9', resolution: '1080p' });
    expect(parseVideoSize('854x480', 'size')).toMatchObject({ aspectRatio: '16:9', resolution: '480p' });
    expect(parseVideoSize('960x960', 'size')).toMatchObject({ aspectRatio: '1:1', resolution: '1080p' });
    expect(parseVideoSize('960x720', 'size')).toMatchObject({ aspectRatio: '4:3', resolution: '720p' });
    expect(parseVideoSize('1680x720', 'size')).toMatchObject({ aspectRatio: '21:9', resolution: '720p' });
  });

  it('refuses malformed sizes, odd shapes and sizes out of range, naming the field', () => {
    const cases: Array<[unknown, RegExp]> = [
      ['1280*720', /width x height/],
      [' x ', /width x height/],
      ['1280x720x1', /width x height/],
      [1280, /expected a string/],
      [undefined, /is required/],
      ['1000x720', /not a supported shape/],
      ['320x180', /outside/],
      ['3840x2160', /outside/],
      ['99999x1080', /outside/],
    ];
    for (const [value, message] of cases) {
      let error: unknown;
      try {
        parseVideoSize(value, 'size');
      } catch (caught) {
        error = caught;
      }
      expect(error, String(value)).toBeInstanceOf(GatewayError);
      expect((error as GatewayError).param).toBe('size');
      expect((error as GatewayError).message).toMatch(message);
    }
  });
});
