import { describe, expect, it } from 'vitest';
import type { ImageInput } from '../../../core/image.js';
import { serializeForm, toOpenAIImageEditForm } from './to-openai-image-edit-form.js';

const png: ImageInput = { data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]), mediaType: 'image/png', filename: 'cat.png' };
const jpeg: ImageInput = { data: new Uint8Array([0xff, 0xd8, 0xff, 9]), mediaType: 'image/jpeg' };

function entries(form: FormData): Array<[string, string]> {
  return [...form.entries()].map(([name, value]) => [name, typeof value === 'string' ? value : `file:${value.name}:${value.type}:${value.size}`]);
}

describe('toOpenAIImageEditForm', () => {
  it('sends one image as `image`, with the mask and the text fields', () => {
    const form = toOpenAIImageEditForm(
      {
        model: 'textmodel-b-image-1',
        prompt: 'add a hat',
        n: 2,
        size: { width: 1024, height: 1024 },
        responseFormat: 'b64_json',
        images: [png],
        mask: { ...png, filename: undefined },
        options: { quality: 'low', inputFidelity: 'high' },
      },
      'gpt-image-1',
    );
    expect(entries(form)).toEqual([
      ['model', 'gpt-image-1'],
      ['prompt', 'add a hat'],
      ['image', 'file:cat.png:image/png:11'],
      ['mask', 'file:mask.png:image/png:11'],
      ['n', '2'],
      ['size', '1024x1024'],
      ['quality', 'low'],
      ['input_fidelity', 'high'],
    ]);
  });

  it('repeats `image[]` for several images, naming unnamed files by their type', () => {
    const form = toOpenAIImageEditForm({ model: 'm', prompt: 'p', n: 1, responseFormat: 'url', images: [png, jpeg] }, 'dall-e-2');
    expect(entries(form)).toEqual([
      ['model', 'dall-e-2'],
      ['prompt', 'p'],
      ['image[]', 'file:cat.png:image/png:11'],
      ['image[]', 'file:image-2.jpg:image/jpeg:4'],
      ['n', '1'],
      ['response_format', 'b64_json'],
    ]);
  });

  it('serialises to multipart bytes that parse back to the same parts', async () => {
    const { body, contentType } = await serializeForm(
      toOpenAIImageEditForm({ model: 'm', prompt: 'p', n: 1, responseFormat: 'url', images: [png] }, 'gpt-image-1'),
    );
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    const parsed = await new Request('http://x.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body }).formData();
    const image = parsed.get('image') as File;
    expect(Buffer.from(await image.arrayBuffer()).equals(Buffer.from(png.data))).toBe(true);
    expect(parsed.get('prompt')).toBe('p');
  });
});
