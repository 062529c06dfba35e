import { randomBytes } from 'node:crypto';
import type { ChatRequest, FinishReason, ToolCallPart, ToolDefinition } from '../../core/chat.js';
import { invalidRequest } from '../../core/errors.js';
import type { Usage } from '../../core/usage.js';
import type { HashSeed } from '../shared/hash-seed.js';
import { createPrng } from '../shared/prng.js';
import { countTextTokens, encodeText } from '../shared/tokenizer.js';
import { chooseToolsToCall, type ToolPlan } from './choose-tools-to-call.js';
import { composeAnswerText } from './compose-answer-text.js';
import { composeStructuredAnswer } from './compose-structured-answer.js';
import { countPromptTokens } from '../../core/count-prompt-tokens.js';
import { generateFromSchema } from './generate-from-schema.js';
import { createGenerationBudget, GenerationLimitError, type GenerationBudget } from './generation-limits.js';
import { inspectLastTurn } from './inspect-last-turn.js';
import { limitOutputText } from './limit-output-text.js';
import type { DocumentReadings } from './read-documents.js';

/** Everything the simulated model "produced", shared by the plain and the streamed answer. */
export interface SandboxAnswer {
  id: string;
  /** The answer text (with tool calls: the note saying they are simulated; empty when cut to nothing). */
  text: string;
  /** The tokens of `text`, streamed one by one. */
  textTokens: number[];
  toolCalls: ToolCallPart[];
  finishReason: FinishReason;
  stopSequence: string | null;
  usage: Usage;
}

function toolArguments(tool: ToolDefinition, rng: ReturnType<typeof createPrng>, budget: GenerationBudget): string {
  let value: unknown;
  try {
    value = generateFromSchema(tool.parameters ?? { type: 'object' }, rng, budget);
  } catch (error) {
    if (!(error instanceof GenerationLimitError)) throw error;
    const where = error.path === '$' ? '' : ` at ${error.path.replace(/^\$\.?/, '')}`;
    throw invalidRequest(`tools: the sandbox cannot generate arguments for the tool "${tool.name}"${where}: ${error.message}`, 'tools');
  }
  // Arguments are always an object, even for an odd schema whose root is not one.
  return JSON.stringify(typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {});
}

function nameList(tools: readonly ToolDefinition[]): string {
  return tools.map((tool) => tool.name).join(', ');
}

/** Said beside simulated calls, so that a person reading the agent's transcript knows the call was invented. */
export function simulatedCallsNote(tools: readonly ToolDefinition[]): string {
  return `[sandbox] simulated a call to ${nameList(tools)} (arguments invented from the tool's schema; no model chose it)`;
}

/** Said when a tool that acts on the world was asked for but not forced. */
function declinedNote(plan: ToolPlan): string[] {
  if (plan.declined.length === 0) return [];
  return [
    `[sandbox] did not simulate a call to ${nameList(plan.declined)}: it runs commands or changes files, and the sandbox calls such a tool only when tool_choice forces it.`,
  ];
}

/** Ids are unique per answer, like a real model's, even when the content is deterministic. */
function uniqueHex(length: number): string {
  return randomBytes(Math.ceil(length / 2))
    .toString('hex')
    .slice(0, length);
}

/**
 * The deterministic answer to a request, given what was read of its documents: tool calls
 * whose arguments satisfy the tools' schemas, or the text — JSON valid against the response
 * schema when the client asked for structured output, else the marked simulated prose —
 * bounded by `maxTokens` and `stop` as a model's would be. Tool-call arguments are never cut
 * (cut JSON would break clients); their tokens are counted as output.
 */
export function buildSandboxAnswer(request: ChatRequest, seed: HashSeed, readings: DocumentReadings = new Map()): SandboxAnswer {
  const rng = createPrng(seed.seed);
  const turn = inspectLastTurn(request);
  const inputTokens = countPromptTokens(request, readings);
  const id = `sandbox-${uniqueHex(24)}`;
  const plan = chooseToolsToCall(request, turn, rng);
  const tools = plan.call;
  if (tools.length > 0) {
    const budget = createGenerationBudget();
    const toolCalls: ToolCallPart[] = tools.map((tool) => ({
      type: 'tool_call',
      id: `call_${uniqueHex(24)}`,
      name: tool.name,
      arguments: toolArguments(tool, rng, budget),
    }));
    const note = simulatedCallsNote(tools);
    const textTokens = encodeText(note);
    const outputTokens = textTokens.length + countTextTokens(toolCalls.map((call) => call.arguments).join('\n'));
    return { id, text: note, textTokens, toolCalls, finishReason: 'tool_calls', stopSequence: null, usage: { inputTokens, outputTokens } };
  }
  const text =
    composeStructuredAnswer(request.responseFormat, rng, createGenerationBudget()) ?? composeAnswerText(request.model, turn, rng, readings, declinedNote(plan));
  const limited = limitOutputText(text, request.maxTokens, request.stop);
  return {
    id,
    text: limited.text,
    textTokens: limited.tokens,
    toolCalls: [],
    finishReason: limited.finishReason,
    stopSequence: limited.stopSequence,
    usage: { inputTokens, outputTokens: limited.tokens.length },
  };
}
