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

  it('sends JSON and CSV documents as text sources', () => {
    const csv = Buffer.from('a,b\n1,2').toString('base64');
    expect(toDocumentBlock({ type: 'document', source: { kind: 'base64', mediaType: 'text/csv', data: csv } })).toEqual({
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: 'a,b\n1,2' },
    });
    expect(
      toDocumentBlock({ type: 'document', source: { kind: 'base64', mediaType: 'application/json', data: Buffer.from('[1]').toString('base64') } }).source,
    ).toEqual({
      type: 'text',
      media_type: 'text/plain',
      data: '[1]',
    });
  });

  it('refuses linked documents Anthropic cannot fetch: Gemini file URIs and non-http(s) URIs', () => {
    for (const url of ['https://generativelanguage.googleapis.com/v1beta/files/abc123', 'gs://bucket/a.pdf']) {
      expect(() => toDocumentBlock({ type: 'document', source: { kind: 'url', url, mediaType: 'application/pdf' } })).toThrow(
        expect.objectContaining({
          kind: 'invalid_request',
          message: `the document ${url} cannot be fetched by this model; send it inline as base64 or give a public http(s) URL`,
        }),
      );
    }
  });

  it('parses tool arguments, falling back to {} for anything but a JSON object', () => {
    expect(toToolInput('{"a":[1,2]}')).toEqual({ a: [1, 2] });
    expect(toToolInput('{"a":')).toEqual({});
    expect(toToolInput('[1]')).toEqual({});
    expect(toToolInput('')).toEqual({});
  });
});
