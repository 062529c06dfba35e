/**
 * The light reader of `POST /v1/chat/completions` for pass-through: model, stream, the usage
 * request and inline files' sizes; everything else is the upstream's to judge (so `n`, new
 * parameters and content kinds the canonical form lacks reach an OpenAI upstream).
 */
import { decodedBase64Length } from '../../core/document-bytes.js';
import { invalidRequest } from '../../core/errors.js';
import { isJsonObject, peekModel, peekStream, type PeekedChatRequest, type PeekedDocument } from '../../core/peeked-chat-request.js';

export function peekOpenAIChatRequest(body: unknown): PeekedChatRequest {
  if (!isJsonObject(body)) throw invalidRequest('body: expected an object', 'body');
  const model = peekModel(body.model, 'model');
  const stream = peekStream(body.stream);
  const peeked: PeekedChatRequest = { model, stream, documents: inlineFiles(body.messages) };
  if (stream && isJsonObject(body.stream_options) && body.stream_options.include_usage === true) peeked.includeUsage = true;
  return peeked;
}

/** `file` content parts with `file_data` (a base64 data URL or bare base64). */
function inlineFiles(messages: unknown): PeekedDocument[] {
  const documents: PeekedDocument[] = [];
  if (!Array.isArray(messages)) return documents;
  messages.forEach((message, i) => {
    const content = isJsonObject(message) ? message.content : undefined;
    if (!Array.isArray(content)) return;
    content.forEach((part, j) => {
      if (!isJsonObject(part) || part.type !== 'file' || !isJsonObject(part.file)) return;
      const data = part.file.file_data;
      if (typeof data === 'string') documents.push({ param: `messages[${i}].content[${j}].file.file_data`, bytes: fileDataBytes(data) });
    });
  });
  return documents;
}

function fileDataBytes(data: string): number {
  if (!data.startsWith('data:')) return decodedBase64Length(data);
  const comma = data.indexOf(',');
  if (comma === -1) return 0;
  const header = data.slice(5, comma);
  return header.endsWith(';base64') ? decodedBase64Length(data.slice(comma + 1)) : data.length - comma - 1;
}
