/**
 * Gemini `contents` → canonical messages. `model` turns become assistant messages; `user`
 * turns become user messages, except their `functionResponse` parts, which become canonical
 * `tool` turns (split in order, so a mixed turn keeps its sequence). Gemini matches results
 * to calls by name when ids are absent; the canonical form needs ids, so calls without one
 * get a stable `call_<turn>_<part>` and results take the id of the earliest unanswered call
 * of the same name (or their own `call_<turn>_<part>` when no call matches).
 */
import type { ChatMessage, ContentPart, ImagePart, DocumentPart, TextPart, ThinkingPart, ToolCallPart, ToolResultPart } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { optionalString, requireArray, requireObject, requireString, describe, type Json } from '../../core/validate.js';
import { protoField, protoKey } from './proto-field.js';
import { describeValue } from '../../core/describe-value.js';

interface KnownCall {
  id: string;
  name: string;
  answered: boolean;
}

function fail(param: string, message: string): never {
  throw new GatewayError('invalid_request', `${param}: ${message}`, { param });
}

export function parseGeminiContents(value: unknown, param: string): ChatMessage[] {
  const contents = requireArray(value, param);
  if (contents.length === 0) fail(param, 'at least one content is required');
  const messages: ChatMessage[] = [];
  const calls: KnownCall[] = [];
  for (let turn = 0; turn < contents.length; turn++) {
    const at = `${param}[${turn}]`;
    const content = requireObject(contents[turn], at);
    const role = content.role ?? 'user';
    const partsKey = protoKey(content, 'parts');
    const parts = requireArray(content[partsKey], `${at}.${partsKey}`);
    if (parts.length === 0) fail(`${at}.${partsKey}`, 'at least one part is required');
    if (role === 'model') {
      const previous = messages[messages.length - 1];
      const message = parseModelTurn(parts, turn, `${at}.${partsKey}`, calls, previous?.role === 'assistant' ? previous : undefined);
      if (message.content.length > 0) messages.push(message);
    } else if (role === 'user' || role === 'function' || role === '') {
      // `function` is the role older clients gave to function-response turns.
      parseUserTurn(parts, turn, `${at}.${partsKey}`, calls, messages);
    } else {
      fail(`${at}.role`, `must be "user" or "model", got ${describeValue(role)}`);
    }
  }
  return messages;
}

/**
 * A thought continues the open thinking (the last part of this turn, or of the model turn just
 * before it) until that thinking is signed: streamed answers come back one chunk per turn, the
 * thought text in pieces and its signature last.
 */
function openThinking(content: ContentPart[], previous: ChatMessage | undefined): ThinkingPart | undefined {
  const last = content.length > 0 ? content[content.length - 1] : previous?.content[previous.content.length - 1];
  return last?.type === 'thinking' && last.signature === undefined && last.redacted === undefined ? last : undefined;
}

function parseModelTurn(parts: unknown[], turn: number, param: string, calls: KnownCall[], previous: ChatMessage | undefined): ChatMessage {
  const content: Array<TextPart | ThinkingPart | ToolCallPart> = [];
  for (let i = 0; i < parts.length; i++) {
    const at = `${param}[${i}]`;
    const part = requireObject(parts[i], at);
    const text = protoField(part, 'text');
    const functionCall = protoField(part, 'functionCall');
    if (functionCall !== undefined) {
      const call = parseFunctionCall(functionCall, `${at}.${protoKey(part, 'functionCall')}`, `call_${turn}_${i}`);
      calls.push({ id: call.id, name: call.name, answered: false });
      content.push(call);
    } else if (text !== undefined) {
      const value = requireString(text, `${at}.text`);
      if (protoField(part, 'thought') === true) {
        const signature = optionalString(protoField(part, 'thoughtSignature'), `${at}.${protoKey(part, 'thoughtSignature')}`);
        const open = openThinking(content, previous);
        if (open) {
          open.text += value;
          if (signature) open.signature = signature;
        } else {
          content.push(signature ? { type: 'thinking', text: value, signature } : { type: 'thinking', text: value });
        }
      } else if (value.length > 0) {
        content.push({ type: 'text', text: value });
      }
    } else if (protoField(part, 'functionResponse') !== undefined) {
      fail(`${at}.${protoKey(part, 'functionResponse')}`, 'functionResponse parts belong in "user" turns');
    } else if (protoField(part, 'inlineData') !== undefined || protoField(part, 'fileData') !== undefined) {
    } else if (!isIgnoredPart(part)) {
      fail(at, 'a model part needs one of text or functionCall');
    }
  }
  return { role: 'assistant', content };
}

function parseUserTurn(parts: unknown[], turn: number, param: string, calls: KnownCall[], messages: ChatMessage[]): void {
  let current: ChatMessage | undefined;
  for (let i = 0; i < parts.length; i++) {
    const at = `${param}[${i}]`;
    const part = requireObject(parts[i], at);
    const functionResponse = protoField(part, 'functionResponse');
    let parsed: ContentPart | undefined;
    if (functionResponse !== undefined) {
      parsed = parseFunctionResponse(functionResponse, `${at}.${protoKey(part, 'functionResponse')}`, calls, `call_${turn}_${i}`);
    } else {
      parsed = parseUserPart(part, at);
    }
    if (parsed === undefined) continue;
    const role = parsed.type === 'tool_result' ? 'tool' : 'user';
    if (current === undefined || current.role !== role) {
      current = { role, content: [] };
      messages.push(current);
    }
    current.content.push(parsed);
  }
}

function parseUserPart(part: Json, at: string): ContentPart | undefined {
  const text = protoField(part, 'text');
  if (text !== undefined) {
    const value = requireString(text, `${at}.text`);
    // Thoughts belong to the model; an empty text carries nothing.
    if (protoField(part, 'thought') === true || value.length === 0) return undefined;
    return { type: 'text', text: value };
  }
  const inline = protoField(part, 'inlineData');
  if (inline !== undefined) return parseInlineData(inline, `${at}.${protoKey(part, 'inlineData')}`);
  const file = protoField(part, 'fileData');
  if (file !== undefined) return parseFileData(file, `${at}.${protoKey(part, 'fileData')}`);
  if (protoField(part, 'functionCall') !== undefined) {
    fail(`${at}.${protoKey(part, 'functionCall')}`, 'functionCall parts belong in "model" turns');
  }
  if (isIgnoredPart(part)) return undefined;
  fail(at, 'a part needs one of text, inlineData, fileData, functionCall or functionResponse');
}

/** Parts the canonical form cannot carry and that need no answer (kept intact on pass-through). */
function isIgnoredPart(part: Json): boolean {
  return (
    protoField(part, 'executableCode') !== undefined ||
    protoField(part, 'codeExecutionResult') !== undefined ||
    protoField(part, 'videoMetadata') !== undefined ||
    protoField(part, 'thoughtSignature') !== undefined
  );
}

function parseInlineData(value: unknown, at: string): ImagePart | DocumentPart {
  const blob = requireObject(value, at);
  const mimeKey = protoKey(blob, 'mimeType', at);
  const mediaType = requireString(blob[mimeKey], `${at}.${mimeKey}`).toLowerCase();
  if (mediaType.length === 0) fail(`${at}.${mimeKey}`, 'must not be empty');
  const data = requireString(blob.data, `${at}.data`);
  if (data.length === 0) fail(`${at}.data`, 'must not be empty');
  if (mediaType.startsWith('image/')) return { type: 'image', source: { kind: 'base64', mediaType, data } };
  if (mediaType.startsWith('text/plain')) {
    return { type: 'document', source: { kind: 'text', text: Buffer.from(data, 'base64').toString('utf8'), mediaType: 'text/plain' } };
  }
  return { type: 'document', source: { kind: 'base64', mediaType, data } };
}

function parseFileData(value: unknown, at: string): ImagePart | DocumentPart {
  const file = requireObject(value, at);
  const uriKey = protoKey(file, 'fileUri', at);
  const url = requireString(file[uriKey], `${at}.${uriKey}`);
  if (url.length === 0) fail(`${at}.${uriKey}`, 'must not be empty');
  const mimeKey = protoKey(file, 'mimeType', at);
  const mediaType = optionalString(file[mimeKey], `${at}.${mimeKey}`)?.toLowerCase();
  if (mediaType?.startsWith('image/')) return { type: 'image', source: { kind: 'url', url, mediaType } };
  return { type: 'document', source: mediaType ? { kind: 'url', url, mediaType } : { kind: 'url', url } };
}

function parseFunctionCall(value: unknown, at: string, fallbackId: string): ToolCallPart {
  const call = requireObject(value, at);
  const name = requireString(call.name, `${at}.name`);
  if (name.length === 0) fail(`${at}.name`, 'must not be empty');
  const args = call.args;
  if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args))) {
    fail(`${at}.args`, `expected an object, got ${describe(args)}`);
  }
  const id = optionalString(call.id, `${at}.id`) || fallbackId;
  return { type: 'tool_call', id, name, arguments: JSON.stringify(args ?? {}) };
}

function parseFunctionResponse(value: unknown, at: string, calls: KnownCall[], fallbackId: string): ToolResultPart {
  const result = requireObject(value, at);
  const name = requireString(result.name, `${at}.name`);
  if (name.length === 0) fail(`${at}.name`, 'must not be empty');
  const response = requireObject(result.response, `${at}.response`);
  const id = optionalString(result.id, `${at}.id`) || matchCall(calls, name) || fallbackId;
  const answered = calls.find((c) => c.id === id && !c.answered);
  if (answered) answered.answered = true;
  // Google's convention: a failed call answers `{error: …}` (a success `{output: …}` or any object).
  if (response.error !== undefined && response.error !== null) {
    const error = response.error;
    return { type: 'tool_result', toolCallId: id, name, content: typeof error === 'string' ? error : JSON.stringify(error), isError: true };
  }
  return { type: 'tool_result', toolCallId: id, name, content: JSON.stringify(response) };
}

function matchCall(calls: KnownCall[], name: string): string | undefined {
  for (const call of calls) if (!call.answered && call.name === name) return call.id;
  for (let i = calls.length - 1; i >= 0; i--) if (calls[i].name === name) return calls[i].id;
  return undefined;
}
