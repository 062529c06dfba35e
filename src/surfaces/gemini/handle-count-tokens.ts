/**
 * `:countTokens` with `{contents}` or `{generateContentRequest}` → `{totalTokens}`, an
 * estimate (see estimate-prompt-tokens.ts). Answered by the gateway, no upstream involved.
 * The model is admitted exactly as `generateContent` admits it (`checkAccess`: key scope,
 * catalog operations, a channel that serves it), so every name `generateContent` answers is
 * counted too, not only the catalog's listed ids.
 */
import type { ChatRequest } from '../../core/chat.js';
import { GatewayError, isGatewayError } from '../../core/errors.js';
import type { GeminiActionContext } from './gemini-action.js';
import { loadTokenizer } from '../../core/tokenizer.js';
import { estimatePromptTokens } from './estimate-prompt-tokens.js';
import { parseGeminiGenerateRequest } from './parse-generate-request.js';
import { protoField, protoKey } from './proto-field.js';

export async function handleCountTokens({ request, services, key, model }: GeminiActionContext): Promise<{ totalTokens: number }> {
  services.checkAccess(key, model, 'chat');
  const body = request.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new GatewayError('invalid_request', 'the request body must be a JSON object (a CountTokensRequest)');
  }
  const countRequest = body as Record<string, unknown>;
  const inner = protoField(countRequest, 'generateContentRequest');
  let chat: ChatRequest;
  if (inner !== undefined && inner !== null) {
    if (countRequest.contents !== undefined) {
      throw new GatewayError('invalid_request', 'contents: give either contents or generateContentRequest, not both', { param: 'contents' });
    }
    chat = withParamPrefix(protoKey(countRequest, 'generateContentRequest'), () => parseGeminiGenerateRequest(inner, model, false));
  } else {
    chat = parseGeminiGenerateRequest({ contents: countRequest.contents }, model, false);
  }
  await loadTokenizer();
  return { totalTokens: estimatePromptTokens(chat) };
}

/** Re-roots the field named by a validation error under `prefix`. */
function withParamPrefix<T>(prefix: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (!isGatewayError(error) || error.kind !== 'invalid_request') throw error;
    if (error.param === undefined) throw new GatewayError('invalid_request', `${prefix}: ${error.message}`, { param: prefix });
    throw new GatewayError('invalid_request', `${prefix}.${error.message}`, { param: `${prefix}.${error.param}`, status: error.status });
  }
}
