import { describe, expect, it } from 'vitest';
import type { ChatRequest, ContentPart } from '../core/chat.js';
import { GatewayError } from '../core/errors.js';
import { checkDocumentLimits, checkPeekedDocuments } from './check-document-limits.js';

const PDF = Buffer.from('%PDF-1.4\n% a small document body\n%%EOF\n').toString('base64');

function request(...parts: ContentPart[]): ChatRequest {
  return {
    model: 'textmodel-a-haiku-4-5-20251001',
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'first turn' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      { role: 'user', content: [{ type: 'text', text: 'read these' }, ...parts] },
    ],
    stream: false,
  };
}

function failure(run: () => void): GatewayError {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('checkDocumentLimits', () => {
  it('lets documents within the limit through, whatever their source', () => {
    const pdfBytes = Buffer.from(PDF, 'base64').length;
    const ok = request(
      { type: 'document', source: { kind: 'base64', mediaType: 'application/pdf', data: PDF } },
      { type: 'document', source: { kind: 'text', text: 'plain notes' } },
      { type: 'document', source: { kind: 'url', url: 'https://example.com/big.pdf' } },
      { type: 'document', source: { kind: 'url', url: `data:application/pdf;base64,${PDF}` } },
    );
    expect(() => checkDocumentLimits(ok, pdfBytes)).not.toThrow();
  });

  it('refuses a base64 document one byte over the limit with a 413 naming the part', () => {
    const pdfBytes = Buffer.from(PDF, 'base64').length;
    const error = failure(() =>
      checkDocumentLimits(request({ type: 'document', source: { kind: 'base64', mediaType: 'application/pdf', data: PDF } }), pdfBytes - 1),
    );
    expect(error.kind).toBe('request_too_large');
    expect(error.status).toBe(413);
    expect(error.param).toBe('messages[2].content[1]');
    expect(error.code).toBe('document_too_large');
    expect(error.message).toBe(`messages[2].content[1]: the document is ${pdfBytes} bytes, more than the limit of ${pdfBytes - 1} bytes per document`);
  });

  it('measures text documents in UTF-8 bytes and data URLs by their payload', () => {
    // "éé" is 4 bytes in UTF-8.
    expect(failure(() => checkDocumentLimits(request({ type: 'document', source: { kind: 'text', text: 'éé' } }), 3)).status).toBe(413);
    expect(() => checkDocumentLimits(request({ type: 'document', source: { kind: 'text', text: 'éé' } }), 4)).not.toThrow();
    const dataUrl = failure(() =>
      checkDocumentLimits(request({ type: 'text', text: 'x' }, { type: 'document', source: { kind: 'url', url: `data:application/pdf;base64,${PDF}` } }), 10),
    );
    expect(dataUrl.status).toBe(413);
    expect(dataUrl.param).toBe('messages[2].content[2]');
  });

  it('speaks of MiB for large documents', () => {
    const threeMiB = 'A'.repeat((3 * 1024 * 1024 * 4) / 3);
    const error = failure(() =>
      checkDocumentLimits(request({ type: 'document', source: { kind: 'base64', mediaType: 'text/csv', data: threeMiB } }), 2 * 1024 * 1024),
    );
    expect(error.message).toBe('messages[2].content[1]: the document is 3.0 MiB (3145728 bytes), more than the limit of 2.0 MiB (2097152 bytes) per document');
  });

  it('refuses invalid base64 with a 400', () => {
    const error = failure(() =>
      checkDocumentLimits(request({ type: 'document', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0xLjQK!!!!' } }), 1000),
    );
    expect(error.kind).toBe('invalid_request');
    expect(error.status).toBe(400);
    expect(error.param).toBe('messages[2].content[1]');
    expect(error.message).toBe("messages[2].content[1]: the document's data is not valid base64");
  });

  it('refuses a document declared as PDF that is not one', () => {
    const zip = Buffer.from('PK\u0003\u0004 not a pdf at all').toString('base64');
    const error = failure(() => checkDocumentLimits(request({ type: 'document', source: { kind: 'base64', mediaType: 'application/pdf', data: zip } }), 1000));
    expect(error.status).toBe(400);
    expect(error.message).toBe('messages[2].content[1]: the document is declared as application/pdf but is not a PDF (it does not start with %PDF-)');
    // Other types are not sniffed.
    expect(() => checkDocumentLimits(request({ type: 'document', source: { kind: 'base64', mediaType: 'application/zip', data: zip } }), 1000)).not.toThrow();
  });

  it('ignores images and text', () => {
    const huge = { type: 'image' as const, source: { kind: 'base64' as const, mediaType: 'image/png', data: 'A'.repeat(4000) } };
    expect(() => checkDocumentLimits(request(huge, { type: 'text', text: 'y'.repeat(5000) }), 10)).not.toThrow();
  });
});

describe('checkPeekedDocuments', () => {
  it('refuses the first document over the limit, naming where it is', () => {
    const error = failure(() =>
      checkPeekedDocuments(
        [
          { param: 'messages[0].content[0].source.data', bytes: 100 },
          { param: 'messages[1].content[2].source.data', bytes: 101 },
        ],
        100,
      ),
    );
    expect(error.kind).toBe('request_too_large');
    expect(error.param).toBe('messages[1].content[2].source.data');
    expect(error.code).toBe('document_too_large');
  });

  it('accepts documents within the limit', () => {
    expect(() => checkPeekedDocuments([{ param: 'contents[0].parts[0].inlineData.data', bytes: 100 }], 100)).not.toThrow();
  });
});
