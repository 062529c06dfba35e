/**
 * Capability-aware routing: of the channels that serve a model, those whose model can take the
 * request. A channel's model is the catalog entry of the upstream model it sends (its
 * `modelMap`/`modelRewrite` target), else of the public id; a model outside the catalog, or an
 * entry without `capabilities`, is not filtered by capability (nothing is known of it). The
 * context check compares the request's input tokens with the entry's `inputTokenLimit`, counting
 * them only when the cheap upper bound exceeds some candidate's limit.
 */
import type { CatalogEntry, ModelCapability } from '../config/types.js';
import type { Catalog } from './catalog.js';
import type { RuntimeChannel } from './runtime-channel.js';
import type { RequestNeeds } from './request-needs.js';

export interface ChannelFit {
  fit: RuntimeChannel[];
  /** What each channel left out lacks (`tools`, `context of 128000 tokens (the request has 150000)`). */
  missing: Map<string, string[]>;
}

/** The catalog entry that describes what a channel's model can do, if any. */
export function channelModelEntry(catalog: Catalog, channel: RuntimeChannel, model: string): CatalogEntry | undefined {
  return catalog.get(channel.upstreamModel(model)) ?? catalog.get(model);
}

function mayLack(entry: CatalogEntry | undefined, needs: RequestNeeds): boolean {
  if (!entry) return false;
  if (entry.capabilities && [...needs.capabilities].some((capability) => !entry.capabilities?.includes(capability))) return true;
  return entry.inputTokenLimit !== undefined && needs.inputTokensAtMost > entry.inputTokenLimit;
}

export async function fitChannels(
  candidates: readonly RuntimeChannel[],
  model: string,
  catalog: Catalog,
  needsOf: () => RequestNeeds | undefined,
): Promise<ChannelFit> {
  const entries = candidates.map((channel) => channelModelEntry(catalog, channel, model));
  // Nothing declared that a request could lack: the request is not even read.
  if (entries.every((entry) => !entry || (!entry.capabilities && entry.inputTokenLimit === undefined))) return { fit: [...candidates], missing: new Map() };
  const needs = needsOf();
  if (!needs || !entries.some((entry) => mayLack(entry, needs))) return { fit: [...candidates], missing: new Map() };
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
    if (entry?.inputTokenLimit !== undefined && needs.inputTokensAtMost > entry.inputTokenLimit) {
      counted ??= await needs.inputTokens();
      if (counted > entry.inputTokenLimit) lacks.push(`a context of ${counted} input tokens (it takes ${entry.inputTokenLimit})`);
    }
    if (lacks.length === 0) fit.push(channel);
    else missing.set(channel.name, lacks);
  }
  return { fit, missing };
}
