/**
 * Capability-aware routing: of the channels that serve a model, those whose model can take the
 * request. A channel's model is the catalog entry of the upstream model it sends (its
 * `modelMap`/`modelRewrite` target), else of the public id; a model outside the catalog, or an
 * entry without `capabilities`, is not filtered by capability (nothing is known of it). The
 * context check compares the request's input tokens with the entry's `inputTokenLimit`, counting
 * them only when the cheap upper bound exceeds some candidate's limit. A request that asks for
 * thinking goes only to the channels whose model may reason (`reasoning` declared, or nothing
 * declared) when there are any; when there are none it is not refused — the providers drop a
 * thinking budget a model cannot use.
 *
 * The request is read (for a pass-through request, its canonical parse) only when a decision
 * depends on it: not when every candidate declares every capability a request can need (or
 * nothing), and the bound of its body's bytes fits every declared context.
 */
import type { CatalogEntry, ModelCapability } from '../config/types.js';
import type { Catalog } from './catalog.js';
import type { RuntimeChannel } from './runtime-channel.js';
import { REFUSING_CAPABILITIES, type RequestNeedsSource } from './request-needs.js';

export interface ChannelFit {
  fit: readonly RuntimeChannel[];
  /** What each channel left out lacks (`tools`, `context of 128000 tokens (the request has 150000)`). */
  missing: ReadonlyMap<string, string[]>;
}

/** The catalog entry that describes what a channel's model can do, if any. */
export function channelModelEntry(catalog: Catalog, channel: RuntimeChannel, model: string): CatalogEntry | undefined {
  return catalog.get(channel.upstreamModel(model)) ?? catalog.get(model);
}

/** Whether an entry's declared capabilities could leave out some request (a list without every capability a request can need). */
function capabilitiesMayLack(entry: CatalogEntry | undefined): boolean {
  const declared = entry?.capabilities;
  if (!declared) return false;
  for (const capability of REFUSING_CAPABILITIES) if (!declared.includes(capability)) return true;
  return false;
}

/** Whether an entry's context could be too small for a request of at most `tokensAtMost` input tokens (undefined: unknown). */
function contextMayLack(entry: CatalogEntry | undefined, tokensAtMost: number | undefined): boolean {
  const limit = entry?.inputTokenLimit;
  return limit !== undefined && (tokensAtMost === undefined || tokensAtMost > limit);
}

function mayReason(entry: CatalogEntry | undefined): boolean {
  return !entry?.capabilities || entry.capabilities.includes('reasoning');
}

const NOTHING_MISSING: ReadonlyMap<string, string[]> = new Map();

export async function fitChannels(candidates: readonly RuntimeChannel[], model: string, catalog: Catalog, source: RequestNeedsSource): Promise<ChannelFit> {
  const bound = source.inputTokensAtMost;
  // One pass, no closure: this runs for every chat call.
  const entries: Array<CatalogEntry | undefined> = new Array(candidates.length);
  let reasoners = 0;
  let mayLeaveOut = false;
  for (let i = 0; i < candidates.length; i++) {
    const entry = channelModelEntry(catalog, candidates[i], model);
    entries[i] = entry;
    if (mayReason(entry)) reasoners++;
    if (!mayLeaveOut && (capabilitiesMayLack(entry) || contextMayLack(entry, bound))) mayLeaveOut = true;
  }
  // Decided without reading the request: no candidate could be left out, whatever it holds (thinking
  // only chooses when some candidates may reason and others may not).
  const reasoningSplits = reasoners > 0 && reasoners < candidates.length;
  if (!reasoningSplits && !mayLeaveOut) return { fit: candidates, missing: NOTHING_MISSING };
  const needs = source.read();
  if (!needs) return { fit: candidates, missing: NOTHING_MISSING };
  const tokensAtMost = bound === undefined ? needs.inputTokensAtMost : Math.min(bound, needs.inputTokensAtMost);
  let counted: number | undefined;
  const fit: RuntimeChannel[] = [];
  const missing = new Map<string, string[]>();
  for (const [i, channel] of candidates.entries()) {
    const entry = entries[i];
    const lacks: string[] = [];
    if (entry?.capabilities) {
      const declared = entry.capabilities;
      for (const capability of needs.capabilities) if (!declared.includes(capability)) lacks.push(capability as ModelCapability);
    }
    if (entry?.inputTokenLimit !== undefined && tokensAtMost > entry.inputTokenLimit) {
      counted ??= await needs.inputTokens();
      if (counted > entry.inputTokenLimit) lacks.push(`a context of ${counted} input tokens (it takes ${entry.inputTokenLimit})`);
    }
    if (lacks.length === 0) fit.push(channel);
    else missing.set(channel.name, lacks);
  }
  if (!needs.thinking) return { fit, missing };
  // Thinking asked: the channels that fit and may reason, if any does (else the budget is dropped upstream).
  const reasoning = fit.filter((channel) => mayReason(entries[candidates.indexOf(channel)]));
  return reasoning.length > 0 ? { fit: reasoning, missing } : { fit, missing };
}
