import { describe, expect, it } from 'vitest';
import { parseBase64DataUrl, toDataUrl } from './openai-data-url.js';

describe('OpenAI data URLs', () => {
  it('parses a base64 data URL', () => {
    expect(parseBase64DataUrl('data:image/png;base64,iVBORw0KGgo=')).toEqual({ mediaType: 'image/png', data: 'iVBORw0KGgo=' });
  });

  it('accepts extra parameters and upper-case media types', () => {
    expect(parseBase64DataUrl('data:Application/PDF;name=a.pdf;base64,JVBERi0=')).toEqual({ mediaType: 'application/pdf', data: 'JVBERi0=' });
  });

  it.each(['https://example.com/a.png', 'data:image/png,rawtext', 'data:image/png;base64', 'data:image/png;base64,'])('rejects %s', (url) => {
    expect(parseBase64DataUrl(url)).toBeUndefined();
  });

  it('builds a data URL', () => {
    expect(toDataUrl('application/pdf', 'JVBERi0=')).toBe('data:application/pdf;base64,JVBERi0=');
  });
});
