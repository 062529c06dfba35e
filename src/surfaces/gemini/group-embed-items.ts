/**
 * A Gemini batch may give each text its own task type, title and dimensionality; a canonical
 * EmbedRequest carries one set of options. Items are grouped by their options (usually a
 * single group: SDKs send one config for the whole batch), each group remembering where its
 * vectors go in the answer.
 */
import type { EmbedRequest } from '../../core/embed.js';
import type { GeminiEmbedItem } from './parse-embed-request.js';

interface EmbedGroup {
  request: EmbedRequest;
  /** For each input of `request`, its index in the client's batch. */
  positions: number[];
}

export function groupEmbedItems(items: readonly GeminiEmbedItem[], model: string): EmbedGroup[] {
  const groups = new Map<string, EmbedGroup>();
  items.forEach((item, position) => {
    const key = JSON.stringify([item.taskType ?? null, item.title ?? null, item.dimensions ?? null]);
    let group = groups.get(key);
    if (!group) {
      group = { request: toEmbedRequest(model, item), positions: [] };
      groups.set(key, group);
    }
    group.request.inputs.push(item.text);
    group.positions.push(position);
  });
  return [...groups.values()];
}

/** An EmbedRequest with the item's options and no inputs yet. */
function toEmbedRequest(model: string, item: GeminiEmbedItem): EmbedRequest {
  const request: EmbedRequest = { model, inputs: [] };
  if (item.taskType !== undefined) request.taskType = item.taskType;
  if (item.title !== undefined) request.title = item.title;
  if (item.dimensions !== undefined) request.dimensions = item.dimensions;
  return request;
}
