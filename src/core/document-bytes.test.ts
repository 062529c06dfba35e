import { describe, expect, it } from 'vitest';
import { decodedBase64Length, decodeTextDocument, isBase64, isPdfMediaType, isTextMediaType, startsLikePdf } from './document-bytes.js';

describe('document media types', () => {
  it('recognises PDF with or without parameters and in any case', () => {
    expect(isPdfMediaType('application/pdf')).toBe(true);
    expect(isPdfMediaType('Application/PDF; name=a.pdf')).toBe(true);
    expect(isPdfMediaType('application/octet-stream')).toBe(false);
  });

  it('counts text/*, JSON and XML as text, nothing else', () => {
    for (const type of [
      'text/plain',
      'text/markdown',
      'text/csv; charset=utf-8',
      'application/json',
      'application/ld+json',
      'application/xml',
      'image/svg+xml',
    ]) {
      expect(isTextMediaType(type), type).toBe(true);
    }
    for (const type of ['application/pdf', 'application/msword', 'image/png', 'audio/mpeg']) expect(isTextMediaType(type), type).toBe(false);
  });
});

describe('base64 checks', () => {
  it('accepts padded and unpadded standard and URL-safe base64', () => {
    expect(isBase64('JVBERi0=')).toBe(true);
    expect(isBase64('JVBERi0')).toBe(true);
    expect(isBase64('ab+/')).toBe(true);
    expect(isBase64('ab-_')).toBe(true);
  });

  it('refuses empty text, foreign characters, whitespace, mixed alphabets and impossible lengths', () => {
    for (const bad of ['', 'not base64!', 'JVBE Ri0=', 'JVBERi0=\n', 'ab+_', 'JVBER', 'JVBERi=', '=AAA'])
      expect(isBase64(bad), JSON.stringify(bad)).toBe(false);
  });

  it('computes the decoded length from the text alone', () => {
    // "%PDF-" is 5 bytes; "hello!" is 6.
    expect(decodedBase64Length('JVBERi0=')).toBe(5);
    expect(decodedBase64Length('JVBERi0')).toBe(5);
    expect(decodedBase64Length('aGVsbG8h')).toBe(6);
    expect(decodedBase64Length('aGk=')).toBe(2);
    expect(decodedBase64Length('aA==')).toBe(1);
  });

  it('tells a PDF header from anything else', () => {
    expect(startsLikePdf(Buffer.from('%PDF-1.7\n...').toString('base64'))).toBe(true);
    expect(startsLikePdf('JVBERi0')).toBe(true);
    expect(startsLikePdf(Buffer.from('PK\u0003\u0004 a zip').toString('base64'))).toBe(false);
    expect(startsLikePdf(Buffer.from('%PDF').toString('base64'))).toBe(false);
  });

  it('decodes text documents as UTF-8', () => {
    expect(decodeTextDocument(Buffer.from('Grüße, 世界').toString('base64'))).toBe('Grüße, 世界');
  });
});
