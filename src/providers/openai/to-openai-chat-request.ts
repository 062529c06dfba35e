/** Canonical ChatRequest → the OpenAI Chat Completions body sent to an upstream. */
import type { ChatMessage, ChatRequest, DocumentPart, ImagePart, TextPart, ToolResultPart } from '../../core/chat.js';
import { decodeTextDocument, isPdfMediaType, isTextMediaType, PDF_MEDIA_TYPE } from '../../core/document-bytes.js';
import { invalidRequest } from '../../core/errors.js';
import type {
  OpenAIChatRequestBody,
  OpenAIMessage,
  OpenAIResponseFormat,
  OpenAITextPart,
  OpenAIToolCall,
  OpenAIToolChoice,
  OpenAIUserContentPart,
} from '../../core/wire/openai-chat-types.js';
import { parseBase64DataUrl, toDataUrl } from '../../core/wire/openai-data-url.js';
import { hasCacheBreakpoints } from '../shared/cache-breakpoints.js';
import { formatInstruction, type JsonResponseFormat, jsonResponseFormat } from '../shared/structured-output.js';

export interface OpenAIRequestOptions {
  /** The model name the upstream knows. */
  model: string;
  /** The flavour's field (`OpenAIFlavour.maxTokensField`): OpenAI wants `max_completion_tokens`, vLLM, Ollama, llama.cpp and LM Studio read `max_tokens`. */
  maxTokensField: 'max_completion_tokens' | 'max_tokens';
  /** Ask for the usage chunk when streaming (some compatible servers reject `stream_options`). */
  streamUsage: boolean;
  /**
   * False for servers without `response_format`: JSON is then asked for in the system prompt
   * (and `fallbackWarning` is given).
   */
  structuredOutput?: boolean;
  fallbackWarning?: string;
  /** Told of every setting dropped or approximated (`Attempt.warn`). */
  warn?(message: string): void;
}

export function toOpenAIChatRequest(request: ChatRequest, options: OpenAIRequestOptions): OpenAIChatRequestBody {
  const warn = (message: string): void => options.warn?.(message);
  const format = jsonResponseFormat(request.responseFormat);
  const native = options.structuredOutput !== false;
  const system = [...(request.system ?? [])];
  if (format && !native) {
    if (options.fallbackWarning) warn(options.fallbackWarning);
    system.push({ type: 'text', text: formatInstruction(format) });
  }
  const messages: OpenAIMessage[] = [];
  if (system.length > 0) {
    // One string: many local chat templates accept a single leading system message only.
    messages.push({ role: 'system', content: joinText(system) });
  }
  request.messages.forEach((message, i) => appendMessage(messages, message, i));

  const body: OpenAIChatRequestBody = { model: options.model, messages };
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stop && request.stop.length > 0) body.stop = request.stop;
  if (request.maxTokens !== undefined) body[options.maxTokensField] = request.maxTokens;
  if (request.presencePenalty !== undefined) body.presence_penalty = request.presencePenalty;
  if (request.frequencyPenalty !== undefined) body.frequency_penalty = request.frequencyPenalty;
  if (request.seed !== undefined) body.seed = request.seed;
  if (request.user !== undefined) body.user = request.user;
  if (format && native) body.response_format = toResponseFormat(format);
  if (request.topK !== undefined) warn('top_k: not supported by OpenAI, dropped');
  if (request.thinkingBudget !== undefined) warn('thinking_budget: not sent to OpenAI-dialect upstreams, dropped');
  if (hasCacheBreakpoints(request)) warn('cache_control: OpenAI caches prompts automatically, breakpoints dropped');
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((tool) => {
      const fn: { name: string; description?: string; parameters: Record<string, unknown>; strict?: boolean } = {
        name: tool.name,
        parameters: tool.parameters,
      };
      if (tool.description !== undefined) fn.description = tool.description;
      if (tool.strict !== undefined) fn.strict = tool.strict;
      return { type: 'function', function: fn };
    });
    // OpenAI refuses parallel_tool_calls without tools.
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  }
  if (request.toolChoice) body.tool_choice = toToolChoice(request.toolChoice);
  if (request.stream) {
    body.stream = true;
    if (options.streamUsage) body.stream_options = { include_usage: true };
  }
  return body;
}

function appendMessage(out: OpenAIMessage[], message: ChatMessage, i: number): void {
  const toolResults: ToolResultPart[] = [];
  const userParts: OpenAIUserContentPart[] = [];
  let text = '';
  let hasText = false;
  const toolCalls: OpenAIToolCall[] = [];
  message.content.forEach((part, j) => {
    switch (part.type) {
      case 'text':
        if (message.role === 'assistant') {
          text += part.text;
          hasText = true;
        } else userParts.push({ type: 'text', text: part.text });
        break;
      case 'image':
        userParts.push(toImagePart(part));
        break;
      case 'document':
        userParts.push(toDocumentPart(part, `messages[${i}].content[${j}]`));
        break;
      case 'tool_call':
        toolCalls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments } });
        break;
      case 'tool_result':
        toolResults.push(part);
        break;
      case 'thinking':
        // OpenAI takes no reasoning back in the input; it is not sent.
        break;
    }
  });
  for (const result of toolResults) out.push({ role: 'tool', tool_call_id: result.toolCallId, content: toolResultContent(result) });
  if (message.role === 'assistant') {
    if (!hasText && toolCalls.length === 0) return;
    const assistant: OpenAIMessage = { role: 'assistant', content: hasText ? text : null };
    if (toolCalls.length > 0) assistant.tool_calls = toolCalls;
    if (message.name !== undefined) assistant.name = message.name;
    out.push(assistant);
    return;
  }
  if (userParts.length === 0) return;
  const user: OpenAIMessage = { role: 'user', content: onlyText(userParts) ?? userParts };
  if (message.name !== undefined) user.name = message.name;
  out.push(user);
}

/** A single text part goes as a plain string: the form every compatible server accepts. */
function onlyText(parts: OpenAIUserContentPart[]): string | undefined {
  return parts.length === 1 && parts[0].type === 'text' ? parts[0].text : undefined;
}

function toImagePart(part: ImagePart): OpenAIUserContentPart {
  const source = part.source;
  if (source.kind === 'text') return { type: 'text', text: source.text };
  const url = source.kind === 'base64' ? toDataUrl(source.mediaType, source.data) : source.url;
  const imageUrl: { url: string; detail?: string } = { url };
  if (part.detail !== undefined) imageUrl.detail = part.detail;
  return { type: 'image_url', image_url: imageUrl };
}

/** Chat Completions takes PDFs as `file` parts and nothing else; text documents go as text. */
function toDocumentPart(part: DocumentPart, param: string): OpenAIUserContentPart {
  const source = part.source;
  if (source.kind === 'text') return { type: 'text', text: source.text };
  let mediaType: string;
  let data: string;
  if (source.kind === 'url') {
    const inline = parseBase64DataUrl(source.url);
    if (!inline) throw invalidRequest(`${param}: documents given by URL cannot be sent to an OpenAI-dialect upstream; send them inline as base64`, param);
    mediaType = inline.mediaType;
    data = inline.data;
  } else {
    mediaType = source.mediaType;
    data = source.data;
  }
  if (isTextMediaType(mediaType)) return { type: 'text', text: decodeTextDocument(data) };
  if (!isPdfMediaType(mediaType)) {
    throw invalidRequest(
      `${param}: documents of type ${mediaType} cannot be sent to an OpenAI-dialect upstream, which takes PDF and text documents only`,
      param,
    );
  }
  return { type: 'file', file: { filename: pdfFilename(part), file_data: toDataUrl(PDF_MEDIA_TYPE, data) } };
}

/** The filename OpenAI is given: the client's, else the title (an Anthropic document's), ending in `.pdf`. */
function pdfFilename(part: DocumentPart): string {
  const name = part.filename ?? part.title ?? 'document';
  return /\.pdf$/i.test(name) ? name : `${name}.pdf`;
}

/** Tool messages take text only; images in a result are named rather than dropped silently. */
/** OpenAI tool messages carry no error flag: a failed call's result says so in its text. */
export const TOOL_ERROR_PREFIX = 'Error: ';

function toolResultContent(result: ToolResultPart): string | OpenAITextPart[] {
  const prefix = result.isError ? TOOL_ERROR_PREFIX : '';
  if (typeof result.content === 'string') return prefix + result.content;
  const texts = result.content.map((part, i) => (i === 0 ? prefix : '') + (part.type === 'text' ? part.text : '[image]'));
  return texts.length === 1 ? texts[0] : texts.map((text) => ({ type: 'text', text }));
}

function joinText(parts: TextPart[]): string {
  return parts.map((part) => part.text).join('\n\n');
}

function toResponseFormat(format: JsonResponseFormat): OpenAIResponseFormat {
  if (format.type !== 'json_schema') return { type: format.type };
  const spec: { name: string; schema: Record<string, unknown>; strict?: boolean } = { name: format.name ?? 'response', schema: format.schema };
  if (format.strict !== undefined) spec.strict = format.strict;
  return { type: 'json_schema', json_schema: spec };
}

function toToolChoice(choice: NonNullable<ChatRequest['toolChoice']>): OpenAIToolChoice {
  return choice.type === 'tool' ? { type: 'function', function: { name: choice.name } } : choice.type;
}
