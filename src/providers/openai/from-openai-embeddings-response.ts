/**
 * An OpenAI embeddings answer → the canonical EmbedResponse: vectors put in input order by
 * their `index`, base64 vectors decoded (a server may ignore the float we asked for), and
 * usage estimated when the server reports none.
 */
import type { EmbedRequest, EmbedResponse } from '../../core/embed.js';
import { GatewayError } from '../../core/errors.js';
import { decodeFloat32Base64 } from '../../core/wire/openai-float32-base64.js';
import type { OpenAIEmbeddingsResponse } from '../../core/wire/openai-embeddings-types.js';
import { estimateTextTokens } from '../shared/estimate-text-tokens.js';

function malformed(detail: string): GatewayError {
  return new GatewayError('upstream', `upstream embeddings answer is malformed: ${detail}`, { retryable: false });
}

export function fromOpenAIEmbeddingsResponse(answer: OpenAIEmbeddingsResponse, request: EmbedRequest): EmbedResponse {
  const data = Array.isArray(answer?.data) ? answer.data : undefined;
  if (!data) throw malformed('no data array');
  if (data.length !== request.inputs.length) throw malformed(`${data.length} embeddings for ${request.inputs.length} inputs`);
  const embeddings = new Array<number[]>(data.length);
  data.forEach((item, position) => {
    const index = typeof item?.index === 'number' ? item.index : position;
    if (!Number.isInteger(index) || index < 0 || index >= data.length || embeddings[index] !== undefined) throw malformed(`bad index ${index}`);
    embeddings[index] = toVector(item.embedding, index);
  });
  const reported = answer.usage?.prompt_tokens;
  const inputTokens = typeof reported === 'number' && reported > 0 ? reported : estimateTextTokens(request.inputs);
  return { model: request.model, embeddings, usage: { inputTokens } };
}

function toVector(embedding: unknown, index: number): number[] {
  if (Array.isArray(embedding) && embedding.every((value) => typeof value === 'number')) return embedding as number[];
  if (typeof embedding === 'string') {
    const decoded = decodeFloat32Base64(embedding);
    if (decoded) return decoded;
  }
  throw malformed(`embedding ${index} is neither a float array nor base64 float32`);
}
