/**
 * Anthropic `image` and `document` blocks (and `cache_control`) → canonical parts.
 */
import type { CacheControl, DocumentPart, ImagePart, MediaSource } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { oneOf, optionalString, requireObject, requireString, type Json } from '../../core/validate.js';

const IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function parseCacheControl(value: unknown, param: string): CacheControl | undefined {
  if (value === undefined || value === null) return undefined;
  const object = requireObject(value, param);
  oneOf(object.type, `${param}.type`, ['ephemeral'] as const);
  const ttl = optionalString(object.ttl, `${param}.ttl`);
  if (ttl !== undefined) oneOf(ttl, `${param}.ttl`, ['5m', '1h'] as const);
  return ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl };
}

function requireBase64(value: unknown, param: string): string {
  const data = requireString(value, param);
  if (data.length === 0 || !BASE64.test(data)) {
    throw new GatewayError('invalid_request', `${param}: expected non-empty base64 data`, { param });
  }
  return data;
}

function requireUrl(value: unknown, param: string): string {
  const url = requireString(value, param);
  if (!/^https?:\/\//i.test(url)) throw new GatewayError('invalid_request', `${param}: expected an http(s) URL`, { param });
  return url;
}

export function parseImageBlock(block: Json, param: string): ImagePart {
  const source = requireObject(block.source, `${param}.source`);
  const kind = oneOf(source.type, `${param}.source.type`, ['base64', 'url'] as const);
  let media: MediaSource;
  if (kind === 'base64') {
    const mediaType = oneOf(source.media_type, `${param}.source.media_type`, IMAGE_MEDIA_TYPES);
    media = { kind: 'base64', mediaType, data: requireBase64(source.data, `${param}.source.data`) };
  } else {
    media = { kind: 'url', url: requireUrl(source.url, `${param}.source.url`) };
  }
  const part: ImagePart = { type: 'image', source: media };
  const cacheControl = parseCacheControl(block.cache_control, `${param}.cache_control`);
  if (cacheControl) part.cacheControl = cacheControl;
  return part;
}

function parseDocumentSource(source: Json, param: string): MediaSource {
  const kind = oneOf(source.type, `${param}.type`, ['base64', 'text', 'url', 'content'] as const);
  switch (kind) {
    case 'base64':
      oneOf(source.media_type, `${param}.media_type`, ['application/pdf'] as const);
      return { kind: 'base64', mediaType: 'application/pdf', data: requireBase64(source.data, `${param}.data`) };
    case 'text':
      oneOf(source.media_type, `${param}.media_type`, ['text/plain'] as const);
      return { kind: 'text', text: requireString(source.data, `${param}.data`), mediaType: 'text/plain' };
    case 'url':
      return { kind: 'url', url: requireUrl(source.url, `${param}.url`) };
    case 'content':
      return { kind: 'text', text: contentSourceText(source.content, `${param}.content`), mediaType: 'text/plain' };
  }
}

/** A `content` document source holding text only; image blocks inside one are not supported. */
function contentSourceText(value: unknown, param: string): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return requireString(value, param);
  return value
    .map((item, i) => {
      const block = requireObject(item, `${param}[${i}]`);
      oneOf(block.type, `${param}[${i}].type`, ['text'] as const);
      return requireString(block.text, `${param}[${i}].text`);
    })
    .join('\n\n');
}

export function parseDocumentBlock(block: Json, param: string): DocumentPart {
  const part: DocumentPart = {
    type: 'document',
    source: parseDocumentSource(requireObject(block.source, `${param}.source`), `${param}.source`),
  };
  const title = optionalString(block.title, `${param}.title`);
  if (title !== undefined) part.title = title;
  const context = optionalString(block.context, `${param}.context`);
  if (context !== undefined) part.context = context;
  const cacheControl = parseCacheControl(block.cache_control, `${param}.cache_control`);
  if (cacheControl) part.cacheControl = cacheControl;
  return part;
}
