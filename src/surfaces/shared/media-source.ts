/**
 * Where an OpenAI-dialect client's image or file is, as a canonical MediaSource: an image URL
 * (an http(s) link or a base64 `data:` URL) and inline file data (a base64 `data:` URL or bare
 * base64, its type from the filename when the data says nothing). Chat Completions (`image_url`,
 * `file.file_data`) and Responses (`input_image`, `input_file`) read them the same way.
 */
import type { MediaSource } from '../../core/chat.js';
import { invalidRequest } from '../../core/errors.js';
import { parseBase64DataUrl } from '../../core/wire/openai-data-url.js';

export function imageUrlSource(url: string, param: string): MediaSource {
  if (url.startsWith('data:')) {
    const parsed = parseBase64DataUrl(url);
    if (!parsed) throw invalidRequest(`${param}: a data URL must be base64-encoded, like data:image/png;base64,…`, param);
    return { kind: 'base64', mediaType: parsed.mediaType, data: parsed.data };
  }
  if (/^https?:\/\//i.test(url)) return { kind: 'url', url };
  throw invalidRequest(`${param}: expected an http(s) URL or a base64 data URL`, param);
}

export function fileDataSource(fileData: string, filename: string | undefined, param: string): MediaSource {
  if (fileData.startsWith('data:')) {
    const parsed = parseBase64DataUrl(fileData);
    if (!parsed) throw invalidRequest(`${param}: a data URL must be base64-encoded, like data:application/pdf;base64,…`, param);
    // A generic type says nothing: the filename does (`report.pdf` sent as application/octet-stream).
    const mediaType = parsed.mediaType === 'application/octet-stream' ? mediaTypeForFilename(filename) : parsed.mediaType;
    return { kind: 'base64', mediaType, data: parsed.data };
  }
  if (fileData.length === 0 || !/^[A-Za-z0-9+/=\r\n_-]+$/.test(fileData.slice(0, 4096))) {
    throw invalidRequest(`${param}: expected a base64 data URL or base64 data`, param);
  }
  return { kind: 'base64', mediaType: mediaTypeForFilename(filename), data: fileData };
}

/** Plain base64 file data carries no media type: infer it from the filename, PDF by default. */
function mediaTypeForFilename(filename: string | undefined): string {
  const extension = filename?.toLowerCase().split('.').pop();
  switch (extension) {
    case 'txt':
      return 'text/plain';
    case 'md':
      return 'text/markdown';
    case 'csv':
      return 'text/csv';
    case 'html':
    case 'htm':
      return 'text/html';
    case 'json':
      return 'application/json';
    default:
      return 'application/pdf';
  }
}
