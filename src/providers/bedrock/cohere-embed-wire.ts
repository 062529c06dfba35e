/**
 * Cohere Embed on Bedrock (`InvokeModel`), as Bedrock documents it. Request: `texts`,
 * `input_type` (`search_document`, `search_query`, `classification`, `clustering`) and
 * `embedding_types: ["float"]`; Embed v4 (`cohere.embed-v4:0`) also takes `output_dimension`
 * (256, 512, 1024 or 1536), v3 (`cohere.embed-english-v3`, `cohere.embed-multilingual-v3`) has no
 * such setting. Answer: `{id, texts, embeddings, response_type}` where `embeddings` is either the
 * list of float vectors (`embeddings_floats`) or an object keyed by embedding type
 * (`embeddings_by_type`, whose `float` list is read); both shapes are accepted from either
 * version. The body carries no token count.
 */
import type { EmbedRequest } from '../../core/embed.js';
import { GatewayError, invalidRequest } from '../../core/errors.js';

const V4_DIMENSIONS = [256, 512, 1024, 1536];

export function isCohereEmbed(model: string): boolean {
  return /(^|[.:/])cohere\.embed/.test(model);
}

function isEmbedV4(model: string): boolean {
  return /(^|[.:/])cohere\.embed-v4/.test(model);
}

function inputTypeOf(request: EmbedRequest): string {
  switch (request.taskType) {
    case 'RETRIEVAL_QUERY':
    case 'CODE_RETRIEVAL_QUERY':
      return 'search_query';
    case 'CLASSIFICATION':
      return 'classification';
    case 'CLUSTERING':
      return 'clustering';
    default:
      return 'search_document';
  }
}

export function cohereEmbedBody(texts: string[], request: EmbedRequest, model: string, warn: (message: string) => void): Record<string, unknown> {
  const body: Record<string, unknown> = { texts, input_type: inputTypeOf(request), embedding_types: ['float'] };
  if (request.dimensions !== undefined) {
    if (!isEmbedV4(model)) warn('dimensions: not a Cohere Embed v3 setting on Bedrock, dropped');
    else if (!V4_DIMENSIONS.includes(request.dimensions))
      throw invalidRequest('dimensions: Cohere Embed v4 on Bedrock takes 256, 512, 1024 or 1536', 'dimensions');
    else body.output_dimension = request.dimensions;
  }
  return body;
}

function isVector(value: unknown): value is number[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'number' && Number.isFinite(item));
}

/** The float vectors of a Cohere answer, one per text sent, in order. */
export function cohereVectors(answer: unknown, count: number): number[][] {
  const embeddings = (answer as { embeddings?: unknown } | null)?.embeddings;
  const floats = Array.isArray(embeddings) ? embeddings : (embeddings as { float?: unknown } | undefined)?.float;
  if (!Array.isArray(floats) || floats.length !== count || !floats.every(isVector)) {
    throw new GatewayError('upstream', `bedrock upstream answered a Cohere embedding without ${count} float vector(s)`, { retryable: true });
  }
  return floats;
}
