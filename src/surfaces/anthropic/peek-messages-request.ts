/**
 * The light reader of `POST /v1/messages` for pass-through: model, stream and inline
 * documents' sizes; everything else is the upstream's to judge (so server tools, new block
 * types and parameters reach an Anthropic upstream).
 */
import { decodedBase64Length } from '../../core/document-bytes.js';
import { GatewayError } from '../../core/errors.js';
import { isJsonObject, peekModel, peekStream, type PeekedChatRequest, type PeekedDocument } from '../../core/peeked-chat-request.js';

export function peekAnthropicMessagesRequest(body: unknown): PeekedChatRequest {
  if (!isJsonObject(body)) throw new GatewayError('invalid_request', 'body: expected an object', { param: 'body' });
  return { model: peekModel(body.model, 'model'), stream: peekStream(body.stream), documents: inlineDocuments(body.messages) };
}

/** `document` blocks with base64 or text sources, in turns and inside `tool_result` blocks. */
function inlineDocuments(messages: unknown): PeekedDocument[] {
  const documents: PeekedDocument[] = [];
  if (!Array.isArray(messages)) return documents;
  messages.forEach((message, i) => {
    if (isJsonObject(message)) collect(message.content, `messages[${i}].content`, documents, true);
  });
  return documents;
}

function collect(content: unknown, param: string, documents: PeekedDocument[], outer: boolean): void {
  if (!Array.isArray(content)) return;
  content.forEach((block, j) => {
    if (!isJsonObject(block)) return;
    const at = `${param}[${j}]`;
    if (block.type === 'document' && isJsonObject(block.source)) {
      const { type, data } = block.source;
      if (typeof data !== 'string') return;
      if (type === 'base64') documents.push({ param: `${at}.source.data`, bytes: decodedBase64Length(data) });
      else if (type === 'text') documents.push({ param: `${at}.source.data`, bytes: Buffer.byteLength(data, 'utf8') });
    } else if (outer && block.type === 'tool_result') {
      collect(block.content, `${at}.content`, documents, false);
    }
  });
}
