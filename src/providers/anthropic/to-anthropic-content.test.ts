import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { toDocumentBlock, toImageBlock, toToolInput } from './to-anthropic-content.js';

describe('to-anthropic-content', () => {
  it('maps base64 and URL images, keeping cache_control', () => {
    expect(toImageBlock({ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAAA' }, cacheControl: { type: 'ephemeral' } })).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: 'AAAA' },
      cache_control: { type: 'ephemeral' },
    });
    expect(toImageBlock({ type: 'image', source: { kind: 'url', url: 'https://x/cat.jpg' } })).toEqual({
      type: 'image',
      source: { type: 'url', url: 'https://x/cat.jpg' },
    });
  });

  it('turns a data: URL image into a base64 source', () => {
    expect(toImageBlock({ type: 'image', source: { kind: 'url', url: 'data:image/jpeg;base64,/9j/4AAQ' }, detail: 'high' })).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' },
    });
  });

  it('maps PDF, URL and text documents with title, context and cache_control', () => {
    expect(
      toDocumentBlock({
        type: 'document',
        source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0x' },
        title: 'Report',
        context: 'Q3',
        cacheControl: { type: 'ephemeral', ttl: '1h' },
      }),
    ).toEqual({
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0x' },
      title: 'Report',
      context: 'Q3',
      cache_control: { type: 'ephemeral', ttl: '1h' },
    });
    expect(toDocumentBlock({ type: 'document', source: { kind: 'url', url: 'https://x/a.pdf' } })).toEqual({
      type: 'document',
      source: { type: 'url', url: 'https://x/a.pdf' },
    });
    expect(toDocumentBlock({ type: 'document', source: { kind: 'text', text: 'hello' }, filename: 'notes.txt' })).toEqual({
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: 'hello' },
      title: 'notes.txt',
    });
  });

  it('decodes a base64 text/plain document (e.g. an OpenAI file part) into a text source', () => {
    expect(toDocumentBlock({ type: 'document', source: { kind: 'url', url: 'data:text/plain;base64,aGVsbG8gd29ybGQ=' } })).toEqual({
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: 'hello world' },
    });
  });

  it('rejects document types Anthropic cannot read', () => {
    expect(() => toDocumentBlock({ type: 'document', source: { kind: 'base64', mediaType: 'application/zip', data: 'UEsDBA==' } })).toThrow(GatewayError);
  });

  it('parses tool arguments, falling back to {} for anything but a JSON object', () => {
    expect(toToolInput('{"a":[1,2]}')).toEqual({ a: [1, 2] });
    expect(toToolInput('{"a":')).toEqual({});
    expect(toToolInput('[1]')).toEqual({});
    expect(toToolInput('')).toEqual({});
  });
});
