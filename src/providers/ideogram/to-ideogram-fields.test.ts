import { describe, expect, it } from 'vitest';
import { appendCommonFields, appendSizeFields, nearestAspectRatio } from './to-ideogram-fields.js';

function fieldsOf(fill: (form: FormData) => void): Array<[string, string]> {
  const form = new FormData();
  fill(form);
  return [...form.entries()].map(([name, value]) => [name, String(value)]);
}

describe('appendCommonFields', () => {
  it('sends count and seed, and the Ideogram extras under their own names; other options stay out', () => {
    const fields = fieldsOf((form) =>
      appendCommonFields(form, {
        n: 3,
        seed: 0,
        options: {
          rendering_speed: 'QUALITY',
          style_type: 'DESIGN',
          magic_prompt: 'ON',
          negative_prompt: 'blur',
          style_preset: 'WATERCOLOR',
          quality: 'hd',
          empty: '',
        },
      }),
    );
    expect(fields).toEqual([
      ['num_images', '3'],
      ['seed', '0'],
      ['rendering_speed', 'QUALITY'],
      ['style_type', 'DESIGN'],
      ['magic_prompt', 'ON'],
      ['negative_prompt', 'blur'],
      ['style_preset', 'WATERCOLOR'],
    ]);
  });
});

describe('appendSizeFields', () => {
  it('writes a canonical `W:H` ratio the way Ideogram 3.0 does: `WxH`', () => {
    expect(fieldsOf((form) => appendSizeFields(form, { n: 1, aspectRatio: '9:16' }))).toEqual([['aspect_ratio', '9x16']]);
  });

  it('replaces a ratio Ideogram lacks by its nearest one', () => {
    expect(fieldsOf((form) => appendSizeFields(form, { n: 1, aspectRatio: '21:9' }))).toEqual([['aspect_ratio', '2x1']]);
  });

  it('sends a size Ideogram renders as its resolution, any other size as the nearest ratio', () => {
    expect(fieldsOf((form) => appendSizeFields(form, { n: 1, size: { width: 1024, height: 1024 } }))).toEqual([['resolution', '1024x1024']]);
    expect(fieldsOf((form) => appendSizeFields(form, { n: 1, size: { width: 512, height: 512 } }))).toEqual([['aspect_ratio', '1x1']]);
    expect(fieldsOf((form) => appendSizeFields(form, { n: 1, size: { width: 1000, height: 750 } }))).toEqual([['aspect_ratio', '4x3']]);
  });

  it('sends nothing when neither size nor ratio was asked', () => {
    expect(fieldsOf((form) => appendSizeFields(form, { n: 1 }))).toEqual([]);
  });
});

describe('nearestAspectRatio', () => {
  it('picks by proportion on a log scale', () => {
    expect(nearestAspectRatio(1)).toBe('1x1');
    expect(nearestAspectRatio(1.7)).toBe('16x9');
    expect(nearestAspectRatio(0.3)).toBe('1x3');
    expect(nearestAspectRatio(10)).toBe('3x1');
    expect(nearestAspectRatio(Number.NaN)).toBe('1x1');
  });
});
