/** `data:` URLs as OpenAI carries inline media (`image_url.url`, `file.file_data`). */

interface DataUrl {
  mediaType: string;
  data: string;
}

/**
 * Parses a base64 `data:` URL into its media type and payload; returns undefined when the
 * value is not a base64 data URL (callers decide what that means). Payloads can be megabytes,
 * so only the header before the first comma is inspected.
 */
export function parseBase64DataUrl(url: string): DataUrl | undefined {
  if (!url.startsWith('data:')) return undefined;
  const comma = url.indexOf(',');
  if (comma === -1) return undefined;
  const [type, ...params] = url.slice(5, comma).split(';');
  if (!params.some((p) => p.trim().toLowerCase() === 'base64')) return undefined;
  const data = url.slice(comma + 1);
  if (data.length === 0) return undefined;
  return { mediaType: type.trim().toLowerCase() || 'application/octet-stream', data };
}

export function toDataUrl(mediaType: string, base64: string): string {
  return `data:${mediaType};base64,${base64}`;
}
