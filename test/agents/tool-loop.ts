/**
 * The scripted model behind every agent test, one `TurnScript` per upstream dialect: while
 * the conversation holds no tool result, a request that offers the agent's file-writing tool
 * is answered with one call to it (the path and content the test chose); once the tool's
 * result comes back, with the final text. Requests that do not offer the tool (titles,
 * summaries, quota probes) get a short text, and requests for structured output are left to
 * the fake's own schema-valid answer (Gemini CLI's next-speaker check reads that JSON). The
 * log tells the test what the upstream saw.
 */
import type { ScriptedTurn, TurnScript } from '../fakes/scripted-turn.js';

export type Dialect = 'anthropic' | 'openai' | 'gemini';

export interface ToolLoopPlan {
  /** The agent's own tool, as it names it in `tools`. */
  tool: string;
  args: Record<string, unknown>;
  finalText: string;
}

export interface ToolLoopLog {
  /** Tool names offered in each model request, in order. */
  offered: string[][];
  toolCalls: number;
  /** The tool results the upstream received, as text. */
  toolResults: string[];
  finals: number;
  sideAnswers: number;
}

export const SIDE_TEXT = 'Agent test side answer.';

type Json = Record<string, unknown>;

function list(value: unknown): Json[] {
  return Array.isArray(value) ? (value.filter((item) => item && typeof item === 'object') as Json[]) : [];
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value.map((item) => (item && typeof item === 'object' && 'text' in item ? String(item.text) : JSON.stringify(item))).join('\n');
  return JSON.stringify(value ?? null);
}

interface View {
  tools: string[];
  results: string[];
  structured: boolean;
}

function anthropicView(body: Json): View {
  const results = list(body.messages)
    .flatMap((message) => list(message.content))
    .filter((block) => block.type === 'tool_result')
    .map((block) => text(block.content));
  const format = (body.output_config as Json | undefined)?.format;
  return { tools: list(body.tools).map((tool) => String(tool.name)), results, structured: format !== undefined && format !== null };
}

function openaiView(body: Json): View {
  const results = list(body.messages)
    .filter((message) => message.role === 'tool')
    .map((message) => text(message.content));
  const format = (body.response_format as Json | undefined)?.type;
  return {
    tools: list(body.tools).map((tool) => String((tool.function as Json | undefined)?.name ?? tool.name)),
    results,
    structured: format === 'json_schema' || format === 'json_object',
  };
}

function geminiView(body: Json): View {
  const results = list(body.contents)
    .flatMap((content) => list(content.parts))
    .filter((part) => part.functionResponse !== undefined)
    .map((part) => JSON.stringify((part.functionResponse as Json).response ?? null));
  const tools = list(body.tools).flatMap((tool) => list(tool.functionDeclarations).map((declaration) => String(declaration.name)));
  const mime = (body.generationConfig as Json | undefined)?.responseMimeType;
  return { tools, results, structured: mime === 'application/json' };
}

const VIEWS: Record<Dialect, (body: Json) => View> = { anthropic: anthropicView, openai: openaiView, gemini: geminiView };

export function newToolLoopLog(): ToolLoopLog {
  return { offered: [], toolCalls: 0, toolResults: [], finals: 0, sideAnswers: 0 };
}

export function toolLoopScript(dialect: Dialect, plan: () => ToolLoopPlan | undefined, log: ToolLoopLog): TurnScript {
  return (body): ScriptedTurn | undefined => {
    const view = VIEWS[dialect](body);
    log.offered.push(view.tools);
    const current = plan();
    if (view.structured || current === undefined) return undefined;
    if (!view.tools.includes(current.tool)) {
      log.sideAnswers++;
      return { text: SIDE_TEXT };
    }
    if (view.results.length === 0) {
      log.toolCalls++;
      return { toolCall: { name: current.tool, args: current.args } };
    }
    log.toolResults.push(...view.results);
    log.finals++;
    return { text: current.finalText };
  };
}
