import { describe, expect, it } from 'vitest';
import { parseTextFlags } from './parse-text-flags.js';

const P = 'content[0].text';

describe('parseTextFlags', () => {
  it('reads Ark’s flags into the canonical fields and removes them from the prompt', () => {
    expect(parseTextFlags('A cat [Image1] jumps  --duration 5 --ratio 16:9 --resolution 720P --seed 1', P)).toEqual({
      prompt: 'A cat [Image1] jumps',
      seconds: 5,
      aspectRatio: '16:9',
      resolution: '720p',
      seed: 1,
    });
  });

  it('knows the short forms and Ark’s extras, which go to options', () => {
    expect(parseTextFlags('--rs 1080p waves --dur 10 --rt 9:16 --fps 24 --cf true --wm false', P)).toEqual({
      prompt: 'waves',
      seconds: 10,
      aspectRatio: '9:16',
      resolution: '1080p',
      options: { framespersecond: 24, camerafixed: true, watermark: false },
    });
  });

  it('leaves unknown flags, a random seed and text without flags as they are', () => {
    expect(parseTextFlags('a--b --style noir --seed -1', P)).toEqual({ prompt: 'a--b --style noir' });
    expect(parseTextFlags('just a prompt', P)).toEqual({ prompt: 'just a prompt' });
  });

  it('refuses bad values and repeated flags, naming the field and the flag', () => {
    const cases: Array<[string, string]> = [
      ['x --duration 30', 'content[0].text: --duration must be between 1 and 20, got 30'],
      ['x --dur 0', 'content[0].text: --dur must be between 1 and 20, got 0'],
      ['x --duration 5.5', 'content[0].text: --duration expects a whole number, got "5.5"'],
      ['x --ratio wide', 'content[0].text: --ratio expects a ratio such as 16:9, or adaptive, got "wide"'],
      ['x --resolution huge', 'content[0].text: --resolution expects a resolution such as 720p, got "huge"'],
      ['x --seed abc', 'content[0].text: --seed expects a whole number, got "abc"'],
      ['x --wm yes', 'content[0].text: --wm expects true or false, got "yes"'],
      ['x --duration 5 --dur 6', 'content[0].text: --dur is given more than once'],
    ];
    for (const [text, message] of cases) {
      expect(() => parseTextFlags(text, P), text).toThrow(expect.objectContaining({ kind: 'invalid_request', param: P, message }));
    }
  });
});
