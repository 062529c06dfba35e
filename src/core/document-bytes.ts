/**
 * Inline documents as base64 text: their kind by media type, their decoded size, whether the
 * text is base64 at all, and whether a PDF starts like one. Documents can be tens of
 * megabytes, so nothing here decodes more than a few bytes.
 */

export const PDF_MEDIA_TYPE = 'application/pdf';

const STANDARD_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const URL_SAFE_BASE64 = /^[A-Za-z0-9_-]*={0,2}$/;
const PDF_MAGIC = '%PDF-';

function baseType(mediaType: string): string {
  const semicolon = mediaType.indexOf(';');
  return (semicolon === -1 ? mediaType : mediaType.slice(0, semicolon)).trim().toLowerCase();
}

export function isPdfMediaType(mediaType: string): boolean {
  return baseType(mediaType) === PDF_MEDIA_TYPE;
}

/** Text a model reads as text: `text/*`, JSON and XML (also `+json`/`+xml` types). */
export function isTextMediaType(mediaType: string): boolean {
  const type = baseType(mediaType);
  return type.startsWith('text/') || type === 'application/json' || type === 'application/xml' || type.endsWith('+json') || type.endsWith('+xml');
}

/** Non-empty base64 in the standard or the URL-safe alphabet, padded correctly or not at all; no whitespace. */
export function isBase64(data: string): boolean {
  const remainder = data.length % 4;
  if (data.length === 0 || remainder === 1) return false;
  if (data.endsWith('=') && remainder !== 0) return false;
  return STANDARD_BASE64.test(data) || URL_SAFE_BASE64.test(data);
}

/** Bytes the base64 text decodes to, computed from its length. */
export function decodedBase64Length(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor(((data.length - padding) * 3) / 4);
}

/** True when the decoded bytes begin with the PDF header `%PDF-`. */
export function startsLikePdf(base64: string): boolean {
  // 8 base64 characters decode to the first 6 bytes.
  return Buffer.from(base64.slice(0, 8), 'base64').toString('latin1').startsWith(PDF_MAGIC);
}

/** The UTF-8 text of a base64 text document. */
export function decodeTextDocument(base64: string): string {
  return Buffer.from(base64, 'base64').toString('utf8');
}
