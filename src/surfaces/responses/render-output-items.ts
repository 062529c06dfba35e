/**
 * The output items of a Responses answer — `reasoning`, `message` and `function_call` — in
 * OpenAI's wire shape, built from canonical parts. The JSON renderer and the stream renderer both
 * build their items here, so a client, the stored state and a later `GET` see the same items.
 *
 * Reasoning: its text reaches the client only as a summary, and only when the request asked for
 * one (`reasoning.summary`); a vendor's proof (a signature, or redacted thinking) is sealed into
 * `encrypted_content` with the reasoning text it covers and the provider that issued it, so the
 * parser can replay it on a later turn (the client sees it only with
 * `include: ["reasoning.encrypted_content"]`, see `forClient`).
 */
import type { SealedReasoning, ResponseItem } from '../../core/responses.js';
import type { RenderContext, ResponsesEcho } from './seams.js';

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

interface OutputTextPart {
  type: 'output_text';
  annotations: [];
  logprobs: [];
  text: string;
}

interface RefusalPart {
  type: 'refusal';
  refusal: string;
}

const SUMMARY_MODES: ReadonlySet<unknown> = new Set(['auto', 'concise', 'detailed']);

/** True when the echoed `reasoning` asks for a summary (`summary`, or the deprecated `generate_summary`). */
export function wantsReasoningSummary(echo: ResponsesEcho): boolean {
  const reasoning = echo.reasoning;
  if (typeof reasoning !== 'object' || reasoning === null) return false;
  const { summary, generate_summary } = reasoning as Record<string, unknown>;
  return SUMMARY_MODES.has(summary) || SUMMARY_MODES.has(generate_summary);
}

/** The sealed `encrypted_content` of a thinking block, or undefined when it carries no proof to replay. */
export function sealThinking(context: RenderContext, thinking: { text: string; signature?: string; redacted?: string }): string | undefined {
  const signed = thinking.signature !== undefined && thinking.signature.length > 0;
  if (!signed && thinking.redacted === undefined) return undefined;
  const sealed: SealedReasoning = { provider: context.provider };
  if (signed) sealed.signature = thinking.signature;
  if (thinking.text.length > 0) sealed.text = thinking.text;
  if (thinking.redacted !== undefined) sealed.redacted = thinking.redacted;
  return context.sealReasoning(sealed);
}

export function reasoningItem(id: string, summaryText: string | undefined, encryptedContent: string | undefined): ResponseItem {
  const item: ResponseItem = { id, type: 'reasoning', summary: summaryText ? [{ type: 'summary_text', text: summaryText }] : [] };
  if (encryptedContent !== undefined) item.encrypted_content = encryptedContent;
  return item;
}

export function outputTextPart(text: string): OutputTextPart {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

export function refusalPart(refusal: string): RefusalPart {
  return { type: 'refusal', refusal };
}

export function messageItem(id: string, status: ItemStatus, content: Array<OutputTextPart | RefusalPart>): ResponseItem {
  return { id, type: 'message', status, content, role: 'assistant' };
}

/** `callId` is the canonical tool call id, which the client's `function_call_output` names. */
export function functionCallItem(id: string, status: ItemStatus, callId: string, name: string, args: string): ResponseItem {
  return { id, type: 'function_call', status, arguments: args, call_id: callId, name };
}

/** A call with no arguments still gets a JSON object, which clients parse. */
export function finalArguments(args: string): string {
  return args.length === 0 ? '{}' : args;
}
