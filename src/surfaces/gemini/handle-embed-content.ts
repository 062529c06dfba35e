/** `:embedContent` → `{embedding:{values}}`. */
import { GatewayError } from '../../core/errors.js';
import { clientSignal, setRouteHeaders } from '../../http/reply-helpers.js';
import type { GeminiActionContext } from './gemini-action.js';
import { groupEmbedItems } from './group-embed-items.js';
import { parseGeminiEmbedContentRequest } from './parse-embed-request.js';
import { renderGeminiEmbedContentResponse } from './render-embed-response.js';

export async function handleEmbedContent({ request, reply, services, key, model }: GeminiActionContext): Promise<unknown> {
  const item = parseGeminiEmbedContentRequest(request.body, model);
  const [group] = groupEmbedItems([item], model);
  const outcome = await services.embed({
    key,
    surface: 'gemini',
    requestId: String(request.id),
    request: group.request,
    signal: clientSignal(request, reply),
    http: request,
  });
  const vector = outcome.response.embeddings[0];
  if (vector === undefined) throw new GatewayError('upstream', 'the upstream answered without an embedding', { retryable: false });
  setRouteHeaders(reply, outcome.route);
  return reply.send(renderGeminiEmbedContentResponse(vector));
}
