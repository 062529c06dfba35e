/** OpenAI `POST /v1/embeddings` wire shapes, shared by the OpenAI surface and provider. */

export type OpenAIEmbeddingEncoding = 'float' | 'base64';

export interface OpenAIEmbeddingsRequest {
  model: string;
  /** A string, strings, a token array or token arrays. */
  input: string | string[] | number[] | number[][];
  encoding_format?: OpenAIEmbeddingEncoding;
  dimensions?: number;
  user?: string;
}

interface OpenAIEmbedding {
  object: 'embedding';
  index: number;
  /** Floats, or (with `encoding_format: "base64"`) their little-endian float32 bytes in base64. */
  embedding: number[] | string;
}

export interface OpenAIEmbeddingsResponse {
  object: 'list';
  data: OpenAIEmbedding[];
  model: string;
  usage: { prompt_tokens: number; total_tokens: number };
}

/** OpenAI takes at most this many inputs in one request. */
export const OPENAI_MAX_EMBEDDING_INPUTS = 2048;
