/**
 * The canonical ChatRequest → a Bedrock Converse request body (the model is in the URL):
 * `messages` of user/assistant turns with content blocks (`text`, `image`, `document`, `toolUse`,
 * `toolResult`, `reasoningContent`), `system`, `inferenceConfig` and `toolConfig`. Converse wants
 * turns that alternate, so consecutive turns of one role (tool results are user turns) are merged.
 * Images and documents go as bytes: Converse fetches no URLs.
 */
import type { ChatMessage, ChatRequest, ContentPart, DocumentPart, ImagePart, MediaSource, TextPart, ToolResultPart } from '../../core/chat.js';
import { invalidRequest } from '../../core/errors.js';
import { withoutForeignThinking } from '../shared/drop-foreign-thinking.js';
import { formatInstruction, jsonResponseFormat } from '../shared/structured-output.js';
import type { Attempt } from '../types.js';

type Block = Record<string, unknown>;
interface ConverseMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

const IMAGE_FORMATS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/jpg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp' };
const DOCUMENT_FORMATS: Record<string, string> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
};

function image(part: ImagePart, where: string): Block {
  const source: MediaSource = part.source;
  if (source.kind !== 'base64') throw invalidRequest(`${where}: Bedrock takes images as inline data (base64), not URLs`, where);
  const format = IMAGE_FORMATS[source.mediaType.toLowerCase()];
  if (!format) throw invalidRequest(`${where}: Bedrock takes png, jpeg, gif or webp images, not ${source.mediaType.slice(0, 60)}`, where);
  return { image: { format, source: { bytes: source.data } } };
}

function document(part: DocumentPart, index: number, where: string): Block {
  const source = part.source;
  // Converse allows letters, digits, spaces, hyphens, parentheses and brackets in a document's name.
  const name =
    (part.title ?? part.filename ?? `document-${index + 1}`)
      .replace(/[^A-Za-z0-9 ()[\]-]/g, ' ')
      .trim()
      .slice(0, 200) || `document-${index + 1}`;
  if (source.kind === 'text') return { document: { format: 'txt', name, source: { bytes: Buffer.from(source.text).toString('base64') } } };
  if (source.kind !== 'base64') throw invalidRequest(`${where}: Bedrock takes documents as inline data, not URLs`, where);
  const format = DOCUMENT_FORMATS[source.mediaType.toLowerCase()];
  if (!format) throw invalidRequest(`${where}: Bedrock does not take documents of type ${source.mediaType.slice(0, 60)}`, where);
  return { document: { format, name, source: { bytes: source.data } } };
}

function toolInput(argumentsJson: string, where: string): unknown {
  try {
    const value: unknown = JSON.parse(argumentsJson === '' ? '{}' : argumentsJson);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {
    // Reported below.
  }
  throw invalidRequest(`${where}: a tool call's arguments must be a JSON object`, where);
}

function toolResult(part: ToolResultPart, where: string): Block {
  const content =
    typeof part.content === 'string'
      ? [{ text: part.content }]
      : part.content.map((inner, index) => (inner.type === 'text' ? { text: inner.text } : image(inner, `${where}.content[${index}]`)));
  return { toolResult: { toolUseId: part.toolCallId, content: content.length > 0 ? content : [{ text: '' }], ...(part.isError ? { status: 'error' } : {}) } };
}

function block(part: ContentPart, index: number, where: string): Block | undefined {
  switch (part.type) {
    case 'text':
      return part.text.length > 0 ? { text: part.text } : undefined;
    case 'image':
      return image(part, where);
    case 'document':
      return document(part, index, where);
    case 'tool_call':
      return { toolUse: { toolUseId: part.id, name: part.name, input: toolInput(part.arguments, where) } };
    case 'tool_result':
      return toolResult(part, where);
    case 'thinking':
      if (part.redacted !== undefined) return { reasoningContent: { redactedContent: part.redacted } };
      // Reasoning without its signature cannot be sent back.
      return part.signature ? { reasoningContent: { reasoningText: { text: part.text, signature: part.signature } } } : undefined;
  }
}

function toMessages(messages: ChatMessage[]): ConverseMessage[] {
  const out: ConverseMessage[] = [];
  messages.forEach((message, m) => {
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const content = message.content.flatMap((part, p): Block[] => {
      const made = block(part, p, `messages[${m}].content[${p}]`);
      return made ? [made] : [];
    });
    if (content.length === 0) return;
    const last = out.at(-1);
    if (last && last.role === role) last.content.push(...content);
    else out.push({ role, content });
  });
  return out;
}

function toSystem(system: TextPart[] | undefined, instruction: string | undefined): Block[] | undefined {
  const blocks: Block[] = (system ?? []).filter((part) => part.text.length > 0).map((part) => ({ text: part.text }));
  if (instruction) blocks.push({ text: instruction });
  return blocks.length > 0 ? blocks : undefined;
}

/**
 * Declared when the conversation holds tool calls or results but no tool may be called: Converse
 * refuses `toolUse` / `toolResult` blocks without a `toolConfig` (as Anthropic refuses tool blocks
 * without tools), and a `toolConfig` needs at least one tool.
 */
export const NO_TOOL_NAME = 'gengate_no_tool';
export const NO_TOOL_PLACEHOLDER: Block = {
  toolSpec: {
    name: NO_TOOL_NAME,
    description: 'No tool can be called in this turn. Never call this tool: answer in text.',
    inputSchema: { json: { type: 'object', properties: {} } },
  },
};

function holdsToolBlocks(messages: ConverseMessage[]): boolean {
  return messages.some((message) => message.content.some((content) => 'toolUse' in content || 'toolResult' in content));
}

/**
 * Converse's tool choice is `auto`, `any` or `tool`: it has no `none`. A request that offers no
 * tools, or asks for `none`, sends no `toolConfig` (the model then cannot call a tool) unless the
 * conversation holds tool blocks; then only the placeholder above is declared, never the client's
 * tools (a call of it is dropped from the answer: drop-placeholder-calls.ts).
 */
function toToolConfig(request: ChatRequest, messages: ConverseMessage[], warn: (message: string) => void): Block | undefined {
  const choice = request.toolChoice;
  if (!request.tools || request.tools.length === 0 || choice?.type === 'none') {
    if (!holdsToolBlocks(messages)) return undefined;
    if (choice?.type === 'none' && request.tools && request.tools.length > 0) {
      warn(
        'tool_choice: none has no Converse counterpart; the tools were withheld, and a placeholder tool the model is told never to call was declared, as Converse requires one when the conversation holds tool calls or results',
      );
    }
    return { tools: [NO_TOOL_PLACEHOLDER] };
  }
  const tools = request.tools.map((tool) => ({
    toolSpec: {
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      inputSchema: { json: tool.parameters.type === undefined ? { type: 'object', ...tool.parameters } : tool.parameters },
    },
  }));
  const toolChoice = choice?.type === 'required' ? { any: {} } : choice?.type === 'tool' ? { tool: { name: choice.name } } : undefined;
  return { tools, ...(toolChoice ? { toolChoice } : {}) };
}

function isAnthropicModel(model: string): boolean {
  return /(^|[.:/])anthropic\./.test(model);
}

export function toConverse(request: ChatRequest, attempt: Attempt): Record<string, unknown> {
  const warn = (message: string): void => attempt.warn?.(message);
  const format = jsonResponseFormat(request.responseFormat);
  if (format) warn('response_format: Converse has no structured output, asked for in the system prompt');
  const messages = toMessages(withoutForeignThinking(request.messages, attempt.channel.provider, warn));
  const body: Record<string, unknown> = { messages };
  const system = toSystem(request.system, format ? formatInstruction(format) : undefined);
  if (system) body.system = system;
  const inference: Record<string, unknown> = {};
  const maxTokens = request.maxTokens ?? attempt.maxOutputTokens;
  if (maxTokens !== undefined) inference.maxTokens = maxTokens;
  if (request.temperature !== undefined) inference.temperature = request.temperature;
  if (request.topP !== undefined) inference.topP = request.topP;
  if (request.stop && request.stop.length > 0) inference.stopSequences = request.stop;
  if (Object.keys(inference).length > 0) body.inferenceConfig = inference;
  const toolConfig = toToolConfig(request, messages, warn);
  if (toolConfig) body.toolConfig = toolConfig;
  if (request.thinkingBudget !== undefined) {
    if (isAnthropicModel(attempt.upstreamModel)) body.additionalModelRequestFields = { thinking: { type: 'enabled', budget_tokens: request.thinkingBudget } };
    else warn('thinking: sent to Converse only for Anthropic models, dropped');
  }
  if (request.topK !== undefined) warn('top_k: not a Converse setting, dropped');
  if (request.seed !== undefined) warn('seed: not supported by Converse, dropped');
  if (request.presencePenalty !== undefined) warn('presence_penalty: not supported by Converse, dropped');
  if (request.frequencyPenalty !== undefined) warn('frequency_penalty: not supported by Converse, dropped');
  return body;
}
