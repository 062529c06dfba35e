/** One part of a user message's content array (text, image_url, file; audio is refused). */
import type { DocumentPart, ImagePart, TextPart } from '../../core/chat.js';
import { invalidRequest } from '../../core/errors.js';
import { oneOf, optionalString, requireObject, requireString } from '../../core/validate.js';
import { describeValue } from '../../core/describe-value.js';
import { fileDataSource, imageUrlSource } from '../shared/media-source.js';

type UserContentPart = TextPart | ImagePart | DocumentPart;

const IMAGE_DETAILS = ['auto', 'low', 'high'] as const;

export function parseTextPart(value: unknown, param: string): TextPart {
  const part = requireObject(value, param);
  if (part.type !== 'text') throw invalidRequest(`${param}.type: only "text" parts are allowed here, got ${describeValue(part.type)}`, `${param}.type`);
  return { type: 'text', text: requireString(part.text, `${param}.text`) };
}

export function parseUserContentPart(value: unknown, param: string): UserContentPart {
  const part = requireObject(value, param);
  const type = requireString(part.type, `${param}.type`);
  switch (type) {
    case 'text':
      return { type: 'text', text: requireString(part.text, `${param}.text`) };
    case 'image_url':
      return parseImageUrlPart(part.image_url, `${param}.image_url`);
    case 'file':
      return parseFilePart(part.file, `${param}.file`);
    case 'input_audio':
      throw invalidRequest(`${param}.type: input_audio content is not supported`, `${param}.type`);
    default:
      throw invalidRequest(`${param}.type: must be one of "text", "image_url", "file", got ${describeValue(type)}`, `${param}.type`);
  }
}

function parseImageUrlPart(value: unknown, param: string): ImagePart {
  const imageUrl = requireObject(value, param);
  const url = requireString(imageUrl.url, `${param}.url`);
  const image: ImagePart = { type: 'image', source: imageUrlSource(url, `${param}.url`) };
  if (imageUrl.detail !== undefined && imageUrl.detail !== null) image.detail = oneOf(imageUrl.detail, `${param}.detail`, IMAGE_DETAILS);
  return image;
}

function parseFilePart(value: unknown, param: string): DocumentPart {
  const file = requireObject(value, param);
  if (file.file_id !== undefined && file.file_id !== null) {
    throw invalidRequest(`${param}.file_id: file_id is not supported; send the file inline as file_data`, `${param}.file_id`);
  }
  const filename = optionalString(file.filename, `${param}.filename`);
  const fileData = file.file_data;
  if (fileData === undefined || fileData === null) throw invalidRequest(`${param}.file_data: is required`, `${param}.file_data`);
  const raw = requireString(fileData, `${param}.file_data`);
  const document: DocumentPart = { type: 'document', source: fileDataSource(raw, filename, `${param}.file_data`) };
  if (filename !== undefined) document.filename = filename;
  return document;
}
