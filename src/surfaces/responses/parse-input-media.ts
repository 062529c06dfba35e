/**
 * Responses `input_image` and `input_file` parts → canonical image and document parts, with
 * the part as it is stored. Images are http(s) URLs or base64 `data:` URLs; files are inline
 * (`file_data`, a base64 data URL or bare base64) or linked (`file_url`). `file_id` is refused:
 * the gateway has no Files API to look an id up in.
 */
import type { DocumentPart, ImagePart } from '../../core/chat.js';
import { invalidRequest } from '../../core/errors.js';
import { oneOf, optionalString, requireString, type Json } from '../../core/validate.js';
import { fileDataSource, imageUrlSource } from '../shared/media-source.js';

const IMAGE_DETAILS = ['low', 'high', 'auto', 'original'] as const;

export interface ParsedPart<T> {
  part: T;
  /** The part as stored and listed (the client's, known members only). */
  wire: Json;
}

function refuseFileId(part: Json, param: string, instead: string): void {
  if (part.file_id !== undefined && part.file_id !== null) {
    throw invalidRequest(`${param}.file_id: file ids are not supported (gengate has no Files API); send ${instead}`, `${param}.file_id`);
  }
}

export function parseInputImage(part: Json, param: string): ParsedPart<ImagePart> {
  refuseFileId(part, param, 'the image as image_url, an http(s) URL or a base64 data URL');
  const url = requireString(part.image_url, `${param}.image_url`);
  const image: ImagePart = { type: 'image', source: imageUrlSource(url, `${param}.image_url`) };
  const wire: Json = { type: 'input_image', image_url: url, detail: 'auto' };
  if (part.detail !== undefined && part.detail !== null) {
    const detail = oneOf(part.detail, `${param}.detail`, IMAGE_DETAILS);
    // Chat Completions knows no `original` (full resolution): its nearest is `high`.
    image.detail = detail === 'original' ? 'high' : detail;
    wire.detail = detail;
  }
  return { part: image, wire };
}

export function parseInputFile(part: Json, param: string): ParsedPart<DocumentPart> {
  refuseFileId(part, param, 'the file inline as file_data (a base64 data URL) or as file_url');
  const filename = optionalString(part.filename, `${param}.filename`);
  const fileData = optionalString(part.file_data, `${param}.file_data`);
  const fileUrl = optionalString(part.file_url, `${param}.file_url`);
  const wire: Json = { type: 'input_file' };
  let document: DocumentPart;
  if (fileData !== undefined) {
    document = { type: 'document', source: fileDataSource(fileData, filename, `${param}.file_data`) };
    wire.file_data = fileData;
  } else if (fileUrl !== undefined) {
    if (!/^https?:\/\//i.test(fileUrl)) throw invalidRequest(`${param}.file_url: expected an http(s) URL`, `${param}.file_url`);
    document = { type: 'document', source: { kind: 'url', url: fileUrl } };
    wire.file_url = fileUrl;
  } else {
    throw invalidRequest(`${param}: an input_file needs file_data or file_url`, `${param}.file_data`);
  }
  if (filename !== undefined) {
    document.filename = filename;
    wire.filename = filename;
  }
  return { part: document, wire };
}
