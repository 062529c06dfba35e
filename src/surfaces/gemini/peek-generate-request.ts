/**
 * The light reader of `:generateContent` / `:streamGenerateContent` for pass-through: the body
 * is an object, the model (from the path) is sound, and inline PDFs' sizes are known;
 * everything else is the upstream's to judge (so safety settings, server tools and new fields
 * reach a Gemini upstream).
 */
import { decodedBase64Length, isPdfMediaType } from '../../core/document-bytes.js';
import { GatewayError } from '../../core/errors.js';
import { isJsonObject, peekModel, type PeekedChatRequest, type PeekedDocument } from '../../core/peeked-chat-request.js';
import { protoField, protoKey } from './proto-field.js';

export function peekGeminiGenerateRequest(body: unknown, model: string, stream: boolean): PeekedChatRequest {
  if (!isJsonObject(body)) {
    throw new GatewayError('invalid_request', 'the request body must be a JSON object (a GenerateContentRequest)');
  }
  return { model: peekModel(model, 'model'), stream, documents: inlinePdfs(body.contents) };
}

/** `inlineData` / `inline_data` parts of type application/pdf. */
function inlinePdfs(contents: unknown): PeekedDocument[] {
  const documents: PeekedDocument[] = [];
  if (!Array.isArray(contents)) return documents;
  contents.forEach((content, i) => {
    const parts = isJsonObject(content) ? content.parts : undefined;
    if (!Array.isArray(parts)) return;
    parts.forEach((part, j) => {
      if (!isJsonObject(part)) return;
      const blob = protoField(part, 'inlineData');
      if (!isJsonObject(blob)) return;
      const mimeType = protoField(blob, 'mimeType');
      if (typeof mimeType !== 'string' || !isPdfMediaType(mimeType) || typeof blob.data !== 'string') return;
      documents.push({ param: `contents[${i}].parts[${j}].${protoKey(part, 'inlineData')}.data`, bytes: decodedBase64Length(blob.data) });
    });
  });
  return documents;
}
