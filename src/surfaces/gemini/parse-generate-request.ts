/**
 * A Gemini `generateContent` body → the canonical ChatRequest. Proto3 JSON: camelCase and
 * snake_case are both accepted everywhere. `safetySettings`, `cachedContent` and tool kinds
 * other than function declarations have no canonical form; they are accepted and survive
 * only on pass-through.
 */
import type { ChatRequest, TextPart } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { requireArray, requireObject, requireString } from '../../core/validate.js';
import { parseGeminiContents } from './parse-gemini-contents.js';
import { parseGeminiGenerationConfig } from './parse-gemini-generation-config.js';
import { parseGeminiToolConfig, parseGeminiTools } from './parse-gemini-tools.js';
import { protoField, protoKey } from './proto-field.js';

export function parseGeminiGenerateRequest(body: unknown, model: string, stream: boolean): ChatRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new GatewayError('invalid_request', 'the request body must be a JSON object (a GenerateContentRequest)');
  }
  const request = body as Record<string, unknown>;
  const contents = request.contents;
  if (contents === undefined || contents === null) {
    throw new GatewayError('invalid_request', 'contents: is required', { param: 'contents' });
  }
  const chat: ChatRequest = { model, messages: parseGeminiContents(contents, 'contents'), stream };

  const system = protoField(request, 'systemInstruction');
  if (system !== undefined && system !== null) {
    const texts = parseSystemInstruction(system, protoKey(request, 'systemInstruction'));
    if (texts.length > 0) chat.system = texts;
  }

  const config = protoField(request, 'generationConfig');
  if (config !== undefined && config !== null) {
    Object.assign(chat, parseGeminiGenerationConfig(config, protoKey(request, 'generationConfig')));
  }

  if (request.tools !== undefined && request.tools !== null) {
    const tools = parseGeminiTools(request.tools, 'tools');
    if (tools.length > 0) chat.tools = tools;
  }

  const toolConfig = protoField(request, 'toolConfig');
  if (toolConfig !== undefined && toolConfig !== null) {
    const choice = parseGeminiToolConfig(toolConfig, protoKey(request, 'toolConfig'));
    if (choice !== undefined) chat.toolChoice = choice;
  }

  const safety = protoField(request, 'safetySettings');
  if (safety !== undefined && safety !== null) requireArray(safety, protoKey(request, 'safetySettings'));
  return chat;
}

function parseSystemInstruction(value: unknown, param: string): TextPart[] {
  const content = requireObject(value, param);
  const partsKey = protoKey(content, 'parts');
  const parts = requireArray(content[partsKey], `${param}.${partsKey}`);
  const texts: TextPart[] = [];
  parts.forEach((item, i) => {
    const at = `${param}.${partsKey}[${i}]`;
    const part = requireObject(item, at);
    const text = requireString(part.text, `${at}.text`);
    if (text.length > 0) texts.push({ type: 'text', text });
  });
  return texts;
}
