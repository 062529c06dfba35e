/**
 * `:batchEmbedContents` → `{embeddings:[{values}]}` in request order. Requests sharing their
 * options go to the gateway as one call (which splits it for the upstream as needed); calls
 * for different options run side by side and their vectors are put back in place.
 */
import { GatewayError } from '../../core/errors.js';
import { clientSignal, setRouteHeaders } from '../../http/reply-helpers.js';
import type { GeminiActionContext } from './gemini-action.js';
import { groupEmbedItems } from './group-embed-items.js';
import { parseGeminiBatchEmbedRequest } from './parse-embed-request.js';
import { renderGeminiBatchEmbedResponse } from './render-embed-response.js';

export async function handleBatchEmbedContents({ request, reply, services, key, model }: GeminiActionContext): Promise<unknown> {
  const items = parseGeminiBatchEmbedRequest(request.body, model);
  const groups = groupEmbedItems(items, model);
  const signal = clientSignal(request, reply);
  const requestId = String(request.id);
  const outcomes = await Promise.all(
    // One usage row per call, and request ids are unique in the ledger: each group is its own call.
    groups.map((group, g) =>
      services.embed({ key, surface: 'gemini', requestId: groups.length > 1 ? `${requestId}.${g}` : requestId, request: group.request, signal, http: request }),
    ),
  );
  const vectors = new Array<number[]>(items.length);
  groups.forEach((group, g) => {
    const { embeddings } = outcomes[g].response;
    if (embeddings.length !== group.positions.length) {
      throw new GatewayError('upstream', `expected ${group.positions.length} embeddings, the upstream answered ${embeddings.length}`, { retryable: false });
    }
    group.positions.forEach((position, i) => (vectors[position] = embeddings[i]));
  });
  setRouteHeaders(reply, outcomes[0].route);
  return reply.send(renderGeminiBatchEmbedResponse(vectors));
}
