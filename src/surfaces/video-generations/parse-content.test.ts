import { describe, expect, it } from 'vitest';
import { parseContent } from './parse-content.js';

const text = (t: string) => ({ type: 'text', text: t });
const image = (url: string, role?: string) => ({ type: 'image_url', image_url: { url }, ...(role ? { role } : {}) });

describe('parseContent', () => {
  it('reads the prompt with its flags and the images with their roles, keeping their places', () => {
    const parsed = parseContent([image('https://a/1.png', 'first_frame'), text('[Image1] turns --dur 6'), image('https://a/2.png', 'last_frame')]);
    expect(parsed).toEqual({
      textIndex: 1,
      flags: { prompt: '[Image1] turns', seconds: 6 },
      images: [
        { url: 'https://a/1.png', role: 'first_frame', index: 0 },
        { url: 'https://a/2.png', role: 'last_frame', index: 2 },
      ],
    });
  });

  it('makes a lone image without a role the first frame, and accepts a prompt of flags only beside images', () => {
    expect(parseContent([text('--ratio 1:1'), image('https://a/1.png')]).images).toEqual([{ url: 'https://a/1.png', role: 'first_frame', index: 1 }]);
    expect(parseContent([image('https://a/1.png', 'reference_image'), image('https://a/2.png', 'reference_image')]).images).toHaveLength(2);
  });

  it('refuses malformed content naming the element', () => {
    const cases: Array<[unknown, string]> = [
      [undefined, 'content: is required'],
      ['a cat', 'content: expected an array, got a string'],
      [[], 'content: needs a text element or an image_url element'],
      [[text('a'), text('b')], 'content[1]: only one text element is accepted (content[0] is one)'],
      [[{ type: 'video_url' }], 'content[0].type: must be one of "text", "image_url", got "video_url"'],
      [[text('a'), { type: 'image_url', image_url: 'https://a/1.png' }], 'content[1].image_url: expected an object, got a string'],
      [[text('a'), image('https://a/1.png', 'middle')], 'content[1].role: must be one of "first_frame", "last_frame", "reference_image", got "middle"'],
      [
        [image('https://a/1.png'), image('https://a/2.png', 'last_frame')],
        'content[0].role: is required when the request has more than one image (first_frame, last_frame or reference_image)',
      ],
      [[image('https://a/1.png', 'first_frame'), image('https://a/2.png', 'first_frame')], 'content[1].role: only one image may be the first_frame'],
      [[text('  --duration 5 ')], 'content[0].text: must not be empty'],
      [Array.from({ length: 6 }, () => image('https://a/1.png', 'reference_image')), 'content: at most 5 elements (one text, 4 images), got 6'],
      [Array.from({ length: 5 }, () => image('https://a/1.png', 'reference_image')), 'content[4]: at most 4 images are accepted'],
    ];
    for (const [content, message] of cases) {
      expect(() => parseContent(content), message).toThrow(expect.objectContaining({ kind: 'invalid_request', message }));
    }
  });
});
