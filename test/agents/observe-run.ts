/**
 * Turns one agent run into what the test asserts and what the matrix shows: the list of
 * problems (stable wording, so the matrix's notes do not change from run to run) and, per
 * feature, whether the requests that exercised it all succeeded. A request's features are read
 * from its body in whichever dialect it is: `stream`, `thinking`/`reasoning`/`thinkingConfig`,
 * a JSON output format, `previous_response_id`.
 */
import { readFileSync } from 'node:fs';
import type { AgentRig } from './agent-rig.js';
import type { Feature } from './compatibility-matrix.js';
import type { ProxiedRequest } from './recording-proxy.js';
import type { AgentRun } from './run-agent.js';

export interface Observation {
  problems: string[];
  features: Partial<Record<Feature, boolean>>;
}

type Json = Record<string, unknown>;

function isStream(request: ProxiedRequest): boolean {
  return request.body?.stream === true || request.path.includes(':streamGenerateContent');
}

function asksReasoning(body: Json | undefined): boolean {
  if (!body) return false;
  const thinking = body.thinking as Json | undefined;
  if (thinking && thinking.type !== 'disabled') return true;
  if (body.reasoning !== undefined && body.reasoning !== null) return true;
  if (typeof body.reasoning_effort === 'string') return true;
  return ((body.generationConfig as Json | undefined)?.thinkingConfig as Json | undefined) !== undefined;
}

function asksStructured(body: Json | undefined): boolean {
  if (!body) return false;
  const anthropic = (body.output_config as Json | undefined)?.format;
  const chat = (body.response_format as Json | undefined)?.type;
  const responses = ((body.text as Json | undefined)?.format as Json | undefined)?.type;
  const gemini = (body.generationConfig as Json | undefined)?.responseMimeType;
  return (
    (anthropic !== undefined && anthropic !== null) ||
    chat === 'json_schema' ||
    chat === 'json_object' ||
    responses === 'json_schema' ||
    gemini === 'application/json'
  );
}

function offersTools(body: Json | undefined): boolean {
  return Array.isArray(body?.tools) && (body.tools as unknown[]).length > 0;
}

/** Model requests only: what the agent asked of a model (not model lists or token counts). */
function isModelCall(request: ProxiedRequest): boolean {
  return request.method === 'POST' && /\/(messages|chat\/completions|responses)$|:(generateContent|streamGenerateContent)$/.test(request.path.split('?')[0]);
}

function allOk(requests: ProxiedRequest[]): boolean | undefined {
  if (requests.length === 0) return undefined;
  return requests.every((request) => request.status > 0 && request.status < 400);
}

export function observeRun(run: AgentRun, rig: AgentRig, expected: { path: string; content: string; finalText: string }): Observation {
  const problems: string[] = [];
  if (run.timedOut) problems.push('timed out');
  else if (run.code !== 0) problems.push(`exit code ${String(run.code ?? run.signal)}`);
  let written: string | undefined;
  try {
    written = readFileSync(expected.path, 'utf8');
  } catch {
    written = undefined;
  }
  if (rig.log.toolCalls === 0) problems.push('the model was never offered the tool');
  if (written !== expected.content) problems.push('file not written');
  if (rig.log.toolResults.length === 0) problems.push('tool result never reached the upstream');
  if (!run.stdout.includes(expected.finalText)) problems.push('final answer missing from the output');
  const failed = new Set<string>();
  for (const request of rig.proxy.requests) {
    if (request.status === 0 || request.status >= 400) failed.add(`${request.method} ${request.path.split('?')[0]} → ${request.status}`);
  }
  problems.push(...failed);
  for (const attempt of new Set(rig.trap.attempts)) problems.push(`egress: ${attempt}`);

  const calls = rig.proxy.requests.filter(isModelCall);
  const loopDone = written === expected.content && rig.log.toolResults.length > 0 && run.stdout.includes(expected.finalText);
  const features: Partial<Record<Feature, boolean>> = {
    plain: allOk(calls.filter((request) => !offersTools(request.body) && !asksStructured(request.body))),
    stream: allOk(calls.filter(isStream)),
    tools: loopDone && allOk(calls.filter((request) => offersTools(request.body))) === true,
    'structured output': allOk(calls.filter((request) => asksStructured(request.body))),
    reasoning: allOk(calls.filter((request) => asksReasoning(request.body))),
    state: allOk(calls.filter((request) => typeof request.body?.previous_response_id === 'string')),
  };
  for (const feature of Object.keys(features) as Feature[]) if (features[feature] === undefined) delete features[feature];
  return { problems, features };
}
